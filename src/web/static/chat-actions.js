// What a view asks of a view above it in the page's imports: the module that owns an action
// provides it when it loads (chat.js imports them all before anything runs), and a module below
// calls it through `act`. So the modules' imports stay free of circles (make lint checks it,
// scripts/check-page-imports.py), and each can be read and tested from the bottom up.
const OWNERS = {
  invoke: 'chat-composer.js', // run a command, a component or a menu command
  startDm: 'chat-dms.js', // open (or start) a direct message with someone
  openDm: 'chat-dms.js', // open one of one's conversations
  loadDms: 'chat-dms.js', // read one's conversations again
  groupLeft: 'chat.js', // out of a group conversation: the list and the room follow
  pinsChanged: 'chat-pins.js', // a pin came or went: the pins panel follows
  openThread: 'chat-thread.js', // a thread beside its channel (the room itself on a phone)
  jumpTo: 'chat-room.js', // show one message of the open room
  openChannel: 'chat-room.js',
  startReply: 'chat-room.js',
  loadServer: 'chat-servers.js', // read the open server again
  loadSettings: 'chat-manage.js', // redraw the settings panel
  saveMessage: 'chat-saved.js', // keep a message in one's Salvos
  goToMessage: 'chat-saved.js', // a message in its room, wherever that is
};

export const act = Object.fromEntries(Object.entries(OWNERS).map(([name, owner]) =>
  [name, () => { throw new Error(`${name} is provided by ${owner}, which was not loaded`); }]));

export function provide(actions) {
  for (const [name, fn] of Object.entries(actions)) {
    if (!(name in OWNERS)) throw new Error(`${name} is not an action of chat-actions.js`);
    act[name] = fn;
  }
}
