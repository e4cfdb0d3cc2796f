// A voice call between two pages on whatever store and nodes the run has: on two nodes the pages
// are on different nodes (their signals cross the relay), and they hear each other.
'use strict';
const test = require('node:test');
const { startServer, serverWithMembers } = require('./helpers');
const pages = require('./browser');
const { voiceChannel, joinCall, hears, closed } = require('./voice_pages');

const browser = pages.sharedBrowser();

test('two people hear each other, each page on a node of its own when there are several', async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '10'] });
  try {
    const [here, there] = srv.nodes ? srv.nodes.map((n) => n.url) : [srv.url, srv.url];
    const { owner: ana, sid, members: [bia] } = await serverWithMembers(here, 1);
    const vcid = await voiceChannel(here, ana, sid);
    const a = await pages.openApp(browser, here, ana);
    const b = await pages.openApp(browser, there, bia);
    await joinCall(a, vcid);
    await joinCall(b, vcid);
    await hears(a, vcid, bia.user.id);
    await hears(b, vcid, ana.user.id);
    await closed(a, b);
  } finally {
    await srv.stop();
  }
});
