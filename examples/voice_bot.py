"""A bot that speaks: /tocar plays a sound file into the voice channel of the person who asked.
WebRTC with aiortc: Praça relays the offers, answers and ICE candidates over the gateway
(channel_voice:signal) and hands out the ICE servers with voice:join; the sound goes from here
straight to each person's page. The page shows everyone in the channel that a bot is there.

    sudo apt-get install python3-socketio python3-aiohttp python3-aiortc
    PRACA_BOT_TOKEN=… PRACA_SOUND=som.ogg /usr/bin/python3 voice_bot.py

The application needs the intents interactions.receive and voice.connect, and the bot
CONECTAR_VOZ and FALAR in the channel. PRACA_SOUND is any file ffmpeg reads (ogg, mp3, wav);
PRACA_URL defaults to http://127.0.0.1:8080.
"""
import asyncio
import json
import os
import random
import signal
import string
import sys
import time
import urllib.error
import urllib.request

import socketio
from aiortc import RTCConfiguration, RTCIceServer, RTCPeerConnection, RTCSessionDescription
from aiortc.contrib.media import MediaPlayer, MediaRelay
from aiortc.sdp import candidate_from_sdp

BASE = os.environ.get("PRACA_URL", "http://127.0.0.1:8080")
TOKEN = os.environ.get("PRACA_BOT_TOKEN")
SOUND = os.environ.get("PRACA_SOUND")
if not TOKEN:
    sys.exit("Set PRACA_BOT_TOKEN to your bot token (examples/bootstrap.mjs prints one).")
if not SOUND or not os.path.isfile(SOUND):
    sys.exit("Set PRACA_SOUND to a sound file to play (ogg, mp3, wav…).")


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


def say(*words):
    print(*words, flush=True)


sio = socketio.AsyncClient()
me = None
call_now = None  # the call being played: one at a time


class Call:
    """The bot in one voice channel: one connection per person there, all fed by one player."""

    def __init__(self, channel, joined):
        self.channel = channel
        self.peers = {}  # user ID → (connection, its ID)
        self.player = MediaPlayer(SOUND)
        self.relay = MediaRelay()
        self.config = RTCConfiguration([RTCIceServer(urls=s["urls"], username=s.get("username"),
                                                     credential=s.get("credential"))
                                        for s in joined.get("iceServers", [])])

    def connection(self, uid):
        """The connection to uid; a new one (with the sound on it) when there is none."""
        if uid in self.peers:
            return self.peers[uid][0]
        pc = RTCPeerConnection(self.config)
        pc.addTrack(self.relay.subscribe(self.player.audio))
        # IDs that grow with time, as the page's: a newer one replaces an older one.
        self.peers[uid] = (pc, f"{int(time.time() * 1000)}-{''.join(random.choices(string.ascii_lowercase, k=8))}")
        return pc

    async def signal(self, uid, data):
        await sio.call("channel_voice:signal", {"channelId": self.channel["id"], "toUserId": uid,
                                                "data": {"pc": self.peers[uid][1], **data}})

    async def offer(self, uid):
        pc = self.connection(uid)
        await pc.setLocalDescription(await pc.createOffer())  # aiortc gathers every candidate first
        await self.signal(uid, {"description": {"type": "offer", "sdp": pc.localDescription.sdp}})

    async def came(self, uid, data):
        """A page's answer to our offer, its own offer (it joined after us), or a candidate."""
        if "description" in data:
            d = data["description"]
            pc = self.connection(uid)
            await pc.setRemoteDescription(RTCSessionDescription(sdp=d["sdp"], type=d["type"]))
            if d["type"] == "offer":
                await pc.setLocalDescription(await pc.createAnswer())
                await self.signal(uid, {"description": {"type": "answer", "sdp": pc.localDescription.sdp}})
        elif isinstance(data.get("candidate"), dict) and data["candidate"].get("candidate") and uid in self.peers:
            c = data["candidate"]
            candidate = candidate_from_sdp(c["candidate"].split(":", 1)[1])
            candidate.sdpMid, candidate.sdpMLineIndex = c.get("sdpMid"), c.get("sdpMLineIndex")
            await self.peers[uid][0].addIceCandidate(candidate)

    async def hang_up(self, uid):
        pc, _ = self.peers.pop(uid, (None, None))
        if pc:
            await pc.close()

    async def end(self):
        for uid in list(self.peers):
            await self.hang_up(uid)
        await sio.call("voice:leave", {"channelId": self.channel["id"]})


async def voice_channel_of(server_id, user_id):
    """The voice channel user_id is in, among those the bot can see; None when in none."""
    server = await asyncio.to_thread(call, "GET", f"/api/bot/servers/{server_id}")
    for c in server["channels"]:
        if c["type"] != "voice":
            continue
        members = await asyncio.to_thread(
            call, "GET", f"/api/bot/servers/{server_id}/channels/{c['id']}/voice-members")
        if any(m["userId"] == user_id for m in members["members"]):
            return c
    return None


async def play(i):
    global call_now
    channel = await voice_channel_of(i["serverId"], i["user"]["id"])
    if not channel:
        return "Entre num canal de voz primeiro; eu toco lá."
    if call_now:
        return f"Já estou tocando em 🔊 {call_now.channel['name']}."
    joined = await sio.call("voice:join", {"channelId": channel["id"]})
    if not joined.get("ok"):
        return f"Não consegui entrar em 🔊 {channel['name']}: {joined.get('error')}"
    call_now = Call(channel, joined)
    for p in joined["participants"]:
        if p["userId"] != me["user"]["id"]:
            await call_now.offer(p["userId"])
    asyncio.create_task(until_the_end(call_now))
    say(f"playing in {channel['name']}")
    return f"🔊 Tocando em {channel['name']}."


async def until_the_end(c):
    """Leaves the channel once the sound is over."""
    global call_now
    while c.player.audio.readyState != "ended":
        await asyncio.sleep(0.5)
    await c.end()
    if call_now is c:
        call_now = None
    say("done playing")


@sio.on("INTERACTION_CREATE")
async def interaction_create(i):
    if i["type"] != "command" or i["commandName"] != "tocar":
        return
    try:
        content = await play(i)
        await asyncio.to_thread(call, "POST", f"/api/bot/interactions/{i['id']}/respond",
                                {"type": "message", "data": {"content": content}})
    except (PracaError, OSError) as e:
        print(e, file=sys.stderr, flush=True)


@sio.on("channel_voice:signal")
async def voice_signal(s):
    if call_now and s["channelId"] == call_now.channel["id"] and isinstance(s.get("data"), dict):
        await call_now.came(s["fromUserId"], s["data"])


@sio.on("channel_voice:participants_update")
async def participants(u):
    """Whoever left is hung up on: the sound goes only to those in the channel now."""
    if call_now and u["channelId"] == call_now.channel["id"]:
        here = {p["userId"] for p in u["participants"]}
        for uid in list(call_now.peers):
            if uid not in here:
                await call_now.hang_up(uid)


@sio.on("voice:session_ended")
async def session_ended(e):
    global call_now
    if call_now and e["channelId"] == call_now.channel["id"]:
        for uid in list(call_now.peers):
            await call_now.hang_up(uid)
        call_now = None
        say(f"out of the channel: {e['reason']}")


@sio.event
async def connect():
    say(f"connected as @{me['user']['username']}")


async def main():
    global me
    try:
        me = await asyncio.to_thread(call, "GET", "/api/bot/@me")
        await asyncio.to_thread(call, "PUT", "/api/bot/commands", {"commands": [
            {"name": "tocar", "description": "Toca um som no canal de voz em que você está"}]})
    except (PracaError, OSError) as e:
        sys.exit(f"Cannot start: {e}")
    for intent in ("interactions.receive", "voice.connect"):
        if intent not in me["application"]["intents"]:
            print(f"Warning: the intent {intent} is off; turn it on in the developer portal.",
                  file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: os._exit(0))
    await sio.connect(BASE, auth={"token": TOKEN}, wait_timeout=10)
    await sio.wait()


asyncio.run(main())
