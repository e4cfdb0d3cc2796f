// The composer: text sent, or a /command run and its answer awaited; the rules asked for before
// one speaks, and @ suggestions.
import { provide } from './chat-actions.js';
import { commandBody, commandResolver, paintPalette } from './chat-commands.js';
import { clearPending, pendingCount, uploadWith } from './chat-files.js';
import { customEmojiText } from './chat-custom-emoji.js';
import { clearNewLine } from './chat-flow.js';
import { reminderCommand } from './chat-later.js';
import { messagesPath, showMessage } from './chat-messages.js';
import { PERM } from './chat-perms.js';
import { queueSend } from './chat-outbox.js';
import { stopReply } from './chat-room.js';
import { chat } from './chat-store.js';
import { typingSent } from './chat-typing.js';
import { view } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { SHORTCODES } from './emoji-names.js';
import { t } from './i18n.js';
import { customEmojiImage } from './markdown.js';

// A command's answer is awaited this long (an endpoint's 3 s and a little), then the person is
// told that nobody answered, as Discord does.
const ANSWER_WAIT_MS = 3500;

const awaiting = new Set(); // waits: {applicationId, interactionId, timer}

export async function invoke(body) {
  $('#send-error').hidden = true;
  // The wait starts before the request: the bot's answer can come over the socket first.
  const wait = { applicationId: body.applicationId, interactionId: null, timer: null };
  if (body.type === 'command') awaiting.add(wait);
  try {
    const { interactionId } = await api('POST', `/api/servers/${chat.sid}/channels/${chat.cid}/interactions`, body);
    if (!awaiting.has(wait)) return; // answered already
    if (!interactionId) return void awaiting.delete(wait);
    wait.interactionId = interactionId;
    wait.timer = setTimeout(() => {
      if (!awaiting.delete(wait)) return;
      showError($('#send-error'), t('command.no.answer', { name: body.commandName }));
    }, ANSWER_WAIT_MS);
  } catch (e) {
    awaiting.delete(wait);
    showError($('#send-error'), e);
  }
}

// An answer came (a message of that application for me, or its form): the oldest wait ends.
export function answered(applicationId, interactionId) {
  for (const w of awaiting) {
    if ((interactionId && w.interactionId === interactionId) || w.applicationId === applicationId) {
      clearTimeout(w.timer);
      awaiting.delete(w);
      return;
    }
  }
}

export async function send(event) {
  event.preventDefault();
  const text = $('#text').value.trim();
  const files = pendingCount();
  if (!text && !files) return;
  $('#send-error').hidden = $('#rules').hidden = true;
  try {
    const reminder = !files && reminderCommand(text);
    if (reminder) {
      await reminder();
      $('#text').value = '';
      paintPalette();
      return;
    }
    if (text.startsWith('/') && chat.dm) throw new Error(t('command.not.in.dm'));
    if (text.startsWith('/') && !files) await invoke(commandBody(text, chat.commands, commandResolver()));
    else {
      const body = text ? { content: text } : {};
      if (view.replyTo) body.replyToId = view.replyTo.id;
      clearNewLine(); // what came before is read
      if (files) {
        const sent = await uploadWith(messagesPath(), body);
        clearPending();
        showMessage(sent.message);
      } else {
        // Shown pending until it is in, kept if it cannot go; the rules asked for if they must be.
        queueSend(messagesPath(), chat.cid, body, (e) => e.body && e.body.requiresRulesAcceptance && (askRules(), true));
      }
      stopReply();
    }
    typingSent(chat.cid);
    if ($('#text').value.trim() === text) $('#text').value = ''; // not what was typed meanwhile
    $('#mentions').replaceChildren();
    paintPalette();
  } catch (e) {
    if (e.body && e.body.requiresRulesAcceptance) return askRules();
    showError($('#send-error'), e);
  }
}

// A server that asks for its rules to be accepted before anyone speaks.
function askRules() {
  $('#rules-text').textContent = chat.server.rules || t('rules.no.text');
  $('#rules').hidden = false;
  $('#rules-accept').focus();
}

// @ at the end of what is being typed: the members whose username starts with what follows,
// then the mentionable roles (and @everyone / @here for those who may use them).
export function suggestMentions() {
  const box = $('#mentions');
  const m = /(^|\s)@([\p{L}\p{N}_.]*)$/u.exec($('#text').value);
  box.replaceChildren();
  if (!m) return suggestEmoji(box);
  const typed = m[2].toLowerCase();
  const roles = chat.roles.filter((r) => r.mentionable && r.id !== chat.server.id).map((r) => r.name);
  if (chat.perms & PERM.MENCIONAR_TODOS) roles.push('everyone', 'here');
  const offers = [
    ...chat.usernames.filter((u) => u.startsWith(typed)).map((name) => ({ name, note: '' })),
    ...roles.filter((r) => r.toLowerCase().startsWith(typed)).map((name) => ({ name, note: t('mention.role.note') })),
  ];
  for (const { name, note } of offers.slice(0, 8)) {
    box.append(el('li', {}, el('button', { type: 'button', text: `@${name}${note}`, onclick: () => {
      const area = $('#text');
      area.value = area.value.slice(0, area.value.length - typed.length) + name + ' ';
      box.replaceChildren();
      area.focus();
    } })));
  }
}

// ":" and two letters at the end of what is being typed: the emoji whose name starts so, as on
// Discord; one chosen takes the place of what was typed.
function suggestEmoji(box) {
  const m = /(^|\s):([a-z0-9_+-]{2,32})$/.exec($('#text').value);
  if (!m) return;
  const typed = m[2];
  // The server's own first, then the common ones.
  const own = chat.dm ? [] : chat.emojis.filter((e) => e.name.startsWith(typed))
    .map((e) => ({ name: e.name, face: customEmojiImage(e.id, e.name), text: customEmojiText(e) }));
  const common = [...SHORTCODES].filter(([name]) => name.startsWith(typed))
    .map(([name, emoji]) => ({ name, face: emoji, text: emoji }));
  for (const { name, face, text } of [...own, ...common].slice(0, 8)) {
    box.append(el('li', {}, el('button', { type: 'button', onclick: () => {
      const area = $('#text');
      area.value = area.value.slice(0, area.value.length - typed.length - 1) + text + ' ';
      box.replaceChildren();
      area.focus();
    } }, face, ` :${name}:`)));
  }
}

provide({ invoke });
