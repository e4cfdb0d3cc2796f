"""A bot written with python-socketio (Debian's python3-socketio), driven by python.test.js.

Usage: python_bot.py BASE_URL TOKEN TRANSPORTS [SECONDS] [reconnect]
Prints one JSON line per thing that happens: connected, ready (connect() returned), an event, a
connect error, disconnect.
TRANSPORTS is "default", "websocket" or "polling". With "reconnect" the client reconnects by
itself (as bots in production do) and runs for SECONDS whatever happens.
"""
import json
import os
import sys
import time

import socketio

base, token, mode = sys.argv[1], sys.argv[2], sys.argv[3]
transports = {"default": None, "websocket": ["websocket"], "polling": ["polling"]}[mode]
reconnect = len(sys.argv) > 5 and sys.argv[5] == "reconnect"
sio = socketio.Client(reconnection=reconnect, reconnection_delay=0.3, reconnection_delay_max=0.6)


def say(**what):
    print(json.dumps(what, ensure_ascii=False), flush=True)


@sio.event
def connect():
    say(kind="connected", transport=sio.transport())


@sio.event
def connect_error(data):
    say(kind="connect_error", data=data)


@sio.event
def disconnect():
    say(kind="disconnect")


@sio.on("MESSAGE_CREATE")
def message_create(message):
    say(kind="event", name="MESSAGE_CREATE", content=message["content"])


try:
    sio.connect(base, auth={"token": token} if token != "-" else None, transports=transports,
                wait_timeout=5)
except socketio.exceptions.ConnectionError as e:
    say(kind="connect_failed", error=str(e))
    time.sleep(1.5)  # long enough to see a reconnect loop if there were one
    sys.exit(0)
# connect() returns once the client counts itself connected: a drop before then would not
# start its reconnection (python-socketio 5.7 refuses with "Already connected").
say(kind="ready")

deadline = time.time() + float(sys.argv[4] if len(sys.argv) > 4 else 4)
while time.time() < deadline and (sio.connected or reconnect):
    time.sleep(0.1)
if sio.connected:
    sio.disconnect()
# A client still trying to reconnect keeps threads alive: leave at once, whatever they do.
sys.stdout.flush()
os._exit(0)
