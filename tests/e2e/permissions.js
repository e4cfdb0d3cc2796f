// The permission bits of docs/api.md ("Permissions"), for every test that grants or denies them.
'use strict';

const P = Object.freeze({
  ADMINISTRADOR: 1 << 0, GERENCIAR_SERVIDOR: 1 << 1, GERENCIAR_CANAIS: 1 << 2, GERENCIAR_CARGOS: 1 << 3,
  EXPULSAR_MEMBROS: 1 << 4, BANIR_MEMBROS: 1 << 5, MODERAR_MEMBROS: 1 << 6, CRIAR_CONVITE: 1 << 7,
  VER_CANAL: 1 << 8, ENVIAR_MENSAGENS: 1 << 9, GERENCIAR_MENSAGENS: 1 << 10, ADICIONAR_REACOES: 1 << 11,
  FIXAR_MENSAGENS: 1 << 12, MENCIONAR_TODOS: 1 << 13, CONECTAR_VOZ: 1 << 14, FALAR: 1 << 15, USAR_COMANDOS: 1 << 16,
  GERENCIAR_WEBHOOKS: 1 << 17, VER_AUDITORIA: 1 << 18,
});

module.exports = { P };
