// The chat client's entry: its panels wired, the live connection (each gateway event applied to
// the store, then the views that show it redrawn), and the server, channel or DM the address
// names opened. The parts live in the chat-*.js modules it imports.
import { wireMfa } from './chat-account.js';
import { loadBlocks } from './chat-blocks.js';
import { adoptBrowserLocale, suggestionsCame } from './chat-apps.js';
import { paintPalette, paletteKey } from './chat-commands.js';
import { answered, send, suggestMentions } from './chat-composer.js';
import { initFiles } from './chat-files.js';
import { provide } from './chat-actions.js';
import { dmArrived, dmName, loadDms, openDm, wireGroups } from './chat-dms.js';
import { lastShownId } from './chat-flow.js';
import { postInForum } from './chat-forum.js';
import { loadInvites } from './chat-invites.js';
import { loadSettings, wireSettings } from './chat-manage.js';
import { memberJoined, memberLeft, presenceChanged } from './chat-members.js';
import { followPeople, listArrived } from './chat-people.js';
import { editLastOwn, forget, messagesPath, showMessage } from './chat-messages.js';
import { openModal } from './chat-modal.js';
import { loadImports, wireImports } from './chat-moving.js';
import { loadOutbox, retryOutbox } from './chat-outbox.js';
import { notifyArrived, wireNotify } from './chat-notify.js';
import { askChannelNotify, askServerNotify, loadNotifySettings } from './chat-notify-settings.js';
import { forgetDevice } from './chat-push.js';
import { paintLater, reminderDue, scheduleMessage } from './chat-later.js';
import { pinsChanged, togglePins } from './chat-pins.js';
import { createPoll } from './chat-poll.js';
import { savedChanged, wireSaved } from './chat-saved.js';
import { loadUnread, markRead, markServerRead, paintTitle, paintUnread } from './chat-read.js';
import { loadOlder, openChannel, refreshRoom, startReply, stopReply } from './chat-room.js';
import { loadSessions, wireSessions } from './chat-sessions.js';
import { loadExports, wireExports } from './chat-exports.js';
import { wireStatus } from './chat-status.js';
import { wireSearch } from './chat-search.js';
import { besideArrived, wireThread } from './chat-thread.js';
import { go, wireScreens } from './chat-screens.js';
import { claimFromLink, offerImported } from './chat-claims.js';
import { loadServers, openServer, paintServer, paintServers } from './chat-servers.js';
import { applyMembers, applyTree, chat, dmForgotten, meChanged, messageArrived, messageEdited, pinApplied, pollApplied, previewsApplied, reactionApplied, roomClosed, roomOf, serverLeft, voiceApplied } from './chat-store.js';
import { tellViewing, typingArrived, typingSaid, typingStopped } from './chat-typing.js';
import { showPanel, toast, view } from './chat-ui.js';
import { paintVoice, voiceEnded, voiceMedia, voicePermission, voiceReconnected, voiceSignal, voiceUpdated } from './chat-voice.js';
import { $, api, copyText, requireSession, showError } from './common.js';
import { startOffline } from './chat-offline.js';
import { rememberLanguage, t, tn, translatePage } from './i18n.js';
import { Gateway } from './sio.js';

function wirePanels() {
  $('#settings-open').addEventListener('click', async () => {
    go('room');
    $('#settings-error').hidden = true;
    showPanel('#settings');
    await loadSettings().catch((e) => showError($('#settings-error'), e));
  });
  wireSettings();
  $('#settings-close').addEventListener('click', () => showPanel('#room'));
  // Esc leaves the settings or the account for the room, unless a dialog or a menu has it.
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('dialog[open], .menu')) return;
    for (const panel of ['#settings', '#account']) if (!$(panel).hidden) showPanel('#room');
  });
  $('#install').addEventListener('submit', (e) => {
    e.preventDefault();
    let url;
    try {
      url = new URL($('#install-link').value.trim());
    } catch {
      return showError($('#settings-error'), new Error(t('install.not.link')));
    }
    if (url.origin !== location.origin || url.pathname !== '/oauth2/authorize')
      return showError($('#settings-error'), new Error(t('install.link.starts', { start: `${location.origin}/oauth2/authorize` })));
    location.assign(url.pathname + url.search);
  });
  const openAccount = () => { go('room'); $('#account-error').hidden = true; showPanel('#account'); loadSessions(); loadExports(); loadImports(); };
  $('#account-open').addEventListener('click', openAccount);
  wireImports(() => { toggleAddServer(false); openAccount(); });
  wireSessions();
  wireExports();
  wireMfa();
  $('#account-close').addEventListener('click', () => showPanel('#room'));
  $('#password-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#account-error').hidden = $('#password-done').hidden = true;
    try {
      const r = await api('POST', '/api/users/@me/password', { currentPassword: $('#current-password').value, newPassword: $('#new-password').value });
      $('#password-form').reset();
      $('#password-done').textContent = tn('password.changed', r.revoked);
      $('#password-done').hidden = false;
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
  $('#logout-everywhere').addEventListener('click', async () => {
    try {
      await forgetDevice();
      await api('POST', '/api/auth/logout-everywhere');
      location.assign('/login');
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
}

// Something in a server changed: the open one is read again (a channel I no longer see closes),
// another one only renamed in the list.
// SERVER_UPDATE: what changed is read again, in one request; never the whole server.
async function serverChanged({ serverId: sid, changed }) {
  if (sid !== chat.sid) {
    if (changed === 'server') loadServers().catch(() => {}); // its name in the list
    return;
  }
  // A members read and a tree read count apart: neither stands for the other, so a newer one of
  // one kind must not drop an older one of the other.
  const members = changed === 'members';
  const generation = members ? ++view.memberLoads : ++view.loads;
  const current = () => sid === chat.sid && generation === (members ? view.memberLoads : view.loads);
  try {
    if (members) {
      const { members: list } = await api('GET', `/api/servers/${sid}/members`);
      if (!current()) return;
      applyMembers(list);
    } else {
      const tree = await api('GET', `/api/servers/${sid}?threads=1`);
      if (!current()) return;
      applyTree(tree);
      const listed = chat.servers.find((x) => x.id === sid);
      if (listed && listed.name !== tree.server.name) {
        listed.name = tree.server.name;
        paintServers();
      }
    }
    paintServer();
    if (chat.cid && !roomOf(chat.cid).room) {
      roomClosed();
      if (chat.channels.length) await openChannel(chat.channels[0].id);
      else $('#messages').replaceChildren();
    } else {
      for (const m of chat.messages.values()) showMessage(m); // actions follow my permissions
    }
    if (!$('#settings').hidden) await loadSettings();
  } catch (e) {
    if (e.status === 403 || e.status === 404) location.assign('/app'); // I am no longer there
    else toast(e);
  }
}

// On a desktop the servers are a rail of icons, and "＋" opens the forms to make or join one
// beside it (Esc or a click elsewhere closes them); a phone shows the forms in the list.
function toggleAddServer(open) {
  $('.servers').classList.toggle('adding', open);
  $('#add-server-open').setAttribute('aria-expanded', String(open));
  if (open) $('#server-name').focus();
}

function wireAddServer() {
  $('#add-server-open').addEventListener('click', () => toggleAddServer(!$('.servers').classList.contains('adding')));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && $('.servers').classList.contains('adding')) { toggleAddServer(false); $('#add-server-open').focus(); }
  });
  document.addEventListener('mousedown', (e) => {
    if ($('.servers').classList.contains('adding') && !e.target.closest('#add-server, #add-server-open')) toggleAddServer(false);
  });
}

// I left a server on another page, or was kicked or banned: it goes from the list at once, and
// the page moves to another one when it was open.
async function removedFrom({ serverId, reason }) {
  const server = chat.servers.find((x) => x.id === serverId);
  if (!server) return;
  serverLeft(serverId);
  paintServers();
  const said = { banned: 'removed.banned', kicked: 'removed.kicked' }[reason] || 'removed.left';
  toast(t(said, { server: server.name }));
  if (chat.sid !== serverId) return;
  if (chat.servers.length) await openServer(chat.servers[0].id);
  else location.assign('/app');
}

// Out of group conversation cid (left on this page or another, or removed): it leaves the list,
// and when it was open the page goes to a server, as when one leaves a server.
async function groupLeft(cid) {
  const d = chat.dms.find((x) => x.id === cid);
  if (!d) return; // told already
  dmForgotten(cid);
  await loadDms();
  toast(t('group.out', { name: dmName(d) }));
  if (!chat.dm || chat.dm.id !== cid) return;
  if (chat.servers.length) await openServer(chat.servers[0].id);
  else location.assign('/app');
}

provide({ groupLeft });

function connectLive() {
  view.gateway = new Gateway()
    .on('connect', () => {
      $('#live').textContent = t('live.on');
      $('#live').classList.add('on');
      view.live = true;
      retryOutbox(); // what waited for the connection goes now
      tellViewing();
      followPeople(true); // a new connection follows no list yet
      voiceReconnected(); // a call goes on: its session went with the old connection
    })
    .on('disconnect', () => { $('#live').textContent = t('live.again'); $('#live').classList.remove('on'); view.live = false; })
    // Back after a drop: what came meanwhile was replayed; when it could not be, the open room
    // is read again so nothing is missing.
    .on('resumed', (resumed) => { if (!resumed) refreshRoom(); })
    .on('EVENTS_GAP', () => refreshRoom())
    .on('MESSAGE_CREATE', (m) => {
      typingStopped(m.fromId);
      if (m.applicationId && m.commandInvokerId === chat.me.id) answered(m.applicationId, null);
      if (!m.serverId) dmArrived(m);
      notifyArrived(m);
      const where = messageArrived(m);
      if (where === 'unread') paintUnread();
      if (where === 'beside') {
        showMessage(m);
        besideArrived(m);
      }
      if (where === 'here') {
        // Away from the tab: the line marks where reading stopped.
        if (document.hidden && m.fromId !== chat.me.id && !view.newAfter && !chat.messages.has(m.id)) view.newAfter = lastShownId();
        showMessage(m);
        markRead(chat.cid, m.id);
        if (document.hidden && m.fromId !== chat.me.id) {
          view.unseenHere++;
          paintTitle();
        }
      }
    })
    .on('MESSAGE_UPDATE', (m) => { if (messageEdited(m)) showMessage(m); })
    .on('MESSAGE_DELETE', (m) => forget(m.id))
    .on('MESSAGE_REACTIONS_UPDATE', (r) => {
      const m = reactionApplied(r);
      if (m) showMessage(m);
    })
    .on('MESSAGE_PREVIEWS_UPDATE', (e) => {
      const m = previewsApplied(e);
      if (m) showMessage(m);
    })
    .on('MESSAGE_POLL_UPDATE', (e) => {
      const m = pollApplied(e);
      if (m) showMessage(m);
    })
    .on('CHANNEL_PINS_UPDATE', (p) => {
      const m = pinApplied(p);
      if (m) showMessage(m);
      pinsChanged(p);
    })
    .on('SAVED_UPDATE', savedChanged)
    .on('SCHEDULED_UPDATE', () => paintLater())
    .on('REMINDER_DUE', reminderDue)
    .on('SERVER_UPDATE', serverChanged)
    .on('GUILD_MEMBER_ADD', memberJoined)
    .on('GUILD_MEMBER_REMOVE', (m) => (m.userId === chat.me.id ? removedFrom(m).catch(toast) : memberLeft(m)))
    .on('INTERACTION_MODAL', (m) => { answered(m.applicationId, m.interactionId); openModal(m); })
    .on('INTERACTION_AUTOCOMPLETE', suggestionsCame)
    .on('PRESENCE_UPDATE', presenceChanged)
    .on('MEMBER_LIST_UPDATE', listArrived)
    .on('TYPING_START', typingArrived)
    .on('DM_UPDATE', () => loadDms().catch(() => {}))
    .on('DM_REMOVE', ({ channelId }) => groupLeft(channelId).catch(toast))
    .on('channel_voice:participants_update', (u) => {
      voiceUpdated(u);
      if (voiceApplied(u)) paintVoice(u.channelId);
    })
    .on('channel_voice:signal', voiceSignal)
    .on('voice:media', voiceMedia)
    .on('voice:permission_changed', voicePermission)
    .on('voice:session_ended', voiceEnded);
  view.gateway.open();
}

async function main() {
  startOffline(); // first: a page opened once opens again without a network
  meChanged(await requireSession());
  await adoptBrowserLocale();
  if (rememberLanguage(chat.me.locale)) return location.reload(); // drawn in another language
  $('#who').textContent = chat.me.displayName || chat.me.username;
  wireStatus();
  $('#logout').addEventListener('click', async () => {
    await forgetDevice();
    await api('POST', '/api/auth/logout').catch(() => {});
    location.assign('/login');
  });
  document.addEventListener('visibilitychange', () => {
    tellViewing();
    if (document.hidden) return;
    view.unseenHere = 0;
    paintTitle();
  });
  $('#composer').addEventListener('submit', send);
  // Polls are for servers' channels and threads; a message may be scheduled anywhere.
  initFiles(() => [...(chat.dm ? [] : [{ label: t('poll.create'), run: () => createPoll(messagesPath(), showMessage) }]),
    { label: t('later.schedule'), run: scheduleMessage }]);
  $('#pins-open').addEventListener('click', () => togglePins());
  wireSaved();
  $('#server-notify').addEventListener('click', () => askServerNotify().catch(toast));
  $('#channel-notify').addEventListener('click', () => askChannelNotify().catch(toast));
  wireSearch();
  wireGroups();
  wireThread();
  $('#server-read').addEventListener('click', () => markServerRead(chat.sid));
  $('#reply-cancel').addEventListener('click', stopReply);
  $('#text').addEventListener('keydown', paletteKey); // first: its keys are not the composer's
  $('#text').addEventListener('input', paintPalette);
  $('#text').addEventListener('blur', () => { $('#palette').hidden = true; });
  $('#text').addEventListener('focus', paintPalette);
  $('#text').addEventListener('keydown', (e) => { if (e.key === 'Escape' && view.replyTo) stopReply(); });
  $('#forum-form').addEventListener('submit', postInForum);
  $('#text').addEventListener('input', suggestMentions);
  $('#text').addEventListener('input', typingSaid);
  $('#rules-accept').addEventListener('click', async () => {
    try {
      await api('POST', `/api/servers/${chat.sid}/rules/accept`);
      $('#rules').hidden = true;
      await send(new Event('submit'));
    } catch (e) {
      showError($('#send-error'), e);
    }
  });
  $('#messages').addEventListener('scroll', () => { if ($('#messages').scrollTop < 80) loadOlder(); });
  $('#text').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) send(e);
    if (e.key === 'ArrowUp' && !$('#text').value) editLastOwn(e);
  });
  $('#modal-cancel').addEventListener('click', () => $('#modal').close());
  wireAddServer();
  $('#create-server').addEventListener('submit', async (e) => {
    e.preventDefault();
    const { server } = await api('POST', '/api/servers', { name: $('#server-name').value }).catch((err) => { toast(err); return {}; });
    if (!server) return;
    $('#server-name').value = '';
    toggleAddServer(false);
    await openServer(server.id);
  });
  $('#join').addEventListener('submit', async (e) => {
    e.preventDefault();
    const code = $('#invite-code').value.trim().replace(/^.*\/invite\//, '');
    const joined = await api('POST', `/api/invites/${encodeURIComponent(code)}/join`).catch((err) => { toast(err); return null; });
    if (!joined) return;
    $('#invite-code').value = '';
    toggleAddServer(false);
    await openServer(joined.server.id);
  });
  $('#invite-make').addEventListener('click', async () => {
    try {
      const { code } = await api('POST', `/api/servers/${chat.sid}/invites`, {});
      $('#invite-link').textContent = `${location.origin}/invite/${code}`;
      $('#invite-box').hidden = false;
      if (!$('#invites-settings').hidden && !$('#settings').hidden) await loadInvites();
    } catch (err) {
      toast(err);
    }
  });
  $('#invite-copy').addEventListener('click', (e) => copyText($('#invite-link').textContent, e.target));
  wirePanels();
  wireScreens();
  wireNotify();
  connectLive();
  await Promise.all([loadServers(), loadDms(),
    loadBlocks(() => { for (const m of chat.messages.values()) showMessage(m); }).catch((e) => toast(e)),
    loadNotifySettings().catch((e) => toast(e))]);
  await loadUnread().catch((e) => toast(e));
  loadOutbox(showMessage);
  window.addEventListener('online', () => retryOutbox());
  const hash = new URLSearchParams(location.hash.slice(1));
  const claimed = (hash.get('claim') ? await claimFromLink(hash.get('claim')) : null) || await offerImported();
  if (hash.get('claim')) history.replaceState(null, '', location.pathname); // a code is good once
  if (claimed) await loadServers();
  const first = chat.servers.find((s) => s.id === (claimed || hash.get('server'))) || chat.servers[0];
  if (hash.get('dm') && chat.dms.some((d) => d.id === hash.get('dm'))) await openDm(hash.get('dm'));
  else if (first) await openServer(first.id, hash.get('channel'));
  // The page opens in the room it shows (on a phone too), with the levels above it to go back to.
  if (chat.cid && !chat.dm) go('channels');
  if (chat.cid) go('room');
}

// The page's state and one of its actions, for the browser's console and the page's tests.
window.praca = { chat, view, startReply };

translatePage();

main().catch((e) => toast(e));
