"""The bot of bot.mjs in Python, with python-socketio: "!ping", /dado, its buttons and its form,
and /pensa, answered later.

    sudo apt-get install python3-socketio     # or: pip install "python-socketio[client]"
    PRACA_BOT_TOKEN=… python3 bot.py

The application needs the intents messages.read and interactions.receive (bootstrap.mjs sets
both). PRACA_URL defaults to http://127.0.0.1:8080.
"""
import json
import os
import random
import signal
import sys
import urllib.error
import urllib.request

import socketio

BASE = os.environ.get("PRACA_URL", "http://127.0.0.1:8080")
TOKEN = os.environ.get("PRACA_BOT_TOKEN")
if not TOKEN:
    sys.exit("Set PRACA_BOT_TOKEN to your bot token (examples/bootstrap.mjs prints one).")


class PracaError(Exception):
    pass


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method, headers={
        "Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.load(res)
    except urllib.error.HTTPError as e:
        error = json.loads(e.read() or b"{}").get("error", "")
        raise PracaError(f"{method} {path}: {e.code} {error}".strip()) from None


DADO = {"name": "dado", "description": "Rola um dado", "options": [
    {"name": "lados", "description": "Quantos lados (padrão 6)", "type": "integer"},
    {"name": "vezes", "description": "Quantas rolagens (padrão 1)", "type": "integer",
     "choices": [{"name": str(n), "value": n} for n in (1, 2, 3)]},
]}

SUGESTAO = {"customId": "sugestao", "title": "Sugira um dado", "components": [{"type": 1, "components": [
    {"type": 4, "customId": "lados", "label": "Quantos lados?", "style": 1, "required": True, "maxLength": 3}]}]}


def roll(sides, times):
    results = [random.randint(1, sides) for _ in range(times)]
    return {"content": f"🎲 d{sides}: {', '.join(map(str, results))}", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Rolar de novo", "customId": f"dado:{sides}:{times}"},
        {"type": 2, "style": 2, "label": "Sugerir um dado", "customId": "sugerir"}]}]}


CORES = ["amarelo", "azul", "branco", "cinza", "laranja", "preto", "rosa", "roxo", "verde", "vermelho"]


def answer(i):
    if i["type"] == "command" and i["commandName"] == "dado":
        opts = {o["name"]: o["value"] for o in i["options"] or []}
        return {"type": "message", "data": roll(min(max(opts.get("lados", 6), 2), 1000), opts.get("vezes", 1))}
    if i["type"] == "component" and i["customId"].startswith("dado:"):
        _, sides, times = i["customId"].split(":")
        return {"type": "update", "data": roll(int(sides), int(times))}
    if i["type"] == "component" and i["customId"] == "sugerir":
        return {"type": "modal", "data": SUGESTAO}
    if i["type"] == "autocomplete" and i["commandName"] == "cor":  # suggestions for what is typed
        typed = str(next(o["value"] for o in i["options"] if o.get("focused"))).lower()
        choices = [{"name": c, "value": c} for c in CORES if c.startswith(typed)][:25]
        return {"type": "autocomplete", "data": {"choices": choices}}
    if i["type"] == "command" and i["commandName"] == "cor":
        return {"type": "message", "data": {"content": f"🎨 {i['options'][0]['value']}"}}
    if i["type"] == "command" and i["commandName"] == "Contar letras":  # run on the message i["target"]
        return {"type": "message", "data": {"content": f"A mensagem tem {len(i['target']['content'])} caracteres.",
                                            "ephemeral": True}}
    if i["type"] == "modal_submit" and i["customId"] == "sugestao":
        sides = next((v["value"] for v in i["values"] if v["customId"] == "lados"), "?")
        return {"type": "message", "data": {"content": f"Obrigado! Anotei a sugestão: d{sides}", "ephemeral": True}}
    return None


try:
    me = call("GET", "/api/bot/@me")
except (PracaError, OSError) as e:
    sys.exit(f"Cannot start: {e}")
for intent in ("messages.read", "interactions.receive"):
    if intent not in me["application"]["intents"]:
        print(f'Warning: the intent {intent} is off for "{me["application"]["name"]}"; '
              "turn it on in the developer portal.", file=sys.stderr, flush=True)
PENSA = {"name": "pensa", "description": "Pensa um pouco antes de responder"}
COR = {"name": "cor", "description": "Mostra uma cor",
       "options": [{"name": "nome", "description": "Qual cor", "type": "string", "required": True, "autocomplete": True}]}
CONTAR = {"type": "message", "name": "Contar letras"}
saved = call("PUT", "/api/bot/commands", {"commands": [DADO, PENSA, COR, CONTAR]})
if saved.get("warning"):
    print(f"Warning: {saved['warning']}", file=sys.stderr, flush=True)

sio = socketio.Client()


@sio.event
def connect():
    print(f"connected as @{me['user']['username']}", flush=True)


@sio.event
def connect_error(data):
    print(f"connection refused: {data.get('message') if isinstance(data, dict) else data}", file=sys.stderr, flush=True)


@sio.event
def disconnect():
    print("disconnected; reconnecting", flush=True)


@sio.on("MESSAGE_CREATE")
def message_create(m):
    if m["applicationId"] or m["content"].strip() != "!ping":
        return  # never answer bots, itself included
    try:
        call("POST", f"/api/bot/servers/{m['serverId']}/channels/{m['channelId']}/messages",
             {"content": "pong", "replyToId": m["id"]})
        print(f"pong to {m['id']}", flush=True)
    except PracaError as e:
        print(e, file=sys.stderr, flush=True)


def later(i, method, path, body):
    """A call with the interaction's own token (no bot token): a separate worker could make it."""
    req = urllib.request.Request(f"{BASE}/api/interactions/{i['id']}/{i['token']}{path}",
                                 data=json.dumps(body).encode(), method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.load(res)


def answer_later(i):
    """A slow answer: "thinking…" at once, the answer in its place, then a follow-up."""
    call("POST", f"/api/bot/interactions/{i['id']}/respond", {"type": "defer"})
    sio.sleep(1.5)  # the slow work
    later(i, "PATCH", "/messages/@original", {"content": "🤔 Pensei: a resposta é 42."})
    later(i, "POST", "/followups", {"content": "Pergunte de novo quando quiser."})
    print("answered command pensa later", flush=True)


@sio.on("INTERACTION_CREATE")
def interaction_create(i):
    if i["type"] == "command" and i["commandName"] == "pensa":
        try:
            answer_later(i)
        except (PracaError, urllib.error.HTTPError) as e:
            print(e, file=sys.stderr, flush=True)
        return
    reply = answer(i)
    if reply is None:
        return
    try:
        call("POST", f"/api/bot/interactions/{i['id']}/respond", reply)
        print(f"answered {i['type']} {i['commandName'] or i['customId']}", flush=True)
    except PracaError as e:
        print(e, file=sys.stderr, flush=True)


def stop(*_):
    sio.disconnect()
    os._exit(0)  # leave at once, even while the client is between reconnects


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
try:
    sio.connect(BASE, auth={"token": TOKEN}, wait_timeout=10)
except socketio.exceptions.ConnectionError as e:
    sys.exit(f"connection refused: {e}")
sio.wait()
