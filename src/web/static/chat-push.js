// Web Push on this device: once the browser lets Praça notify, the page subscribes this device
// through its service worker (the server's VAPID key as applicationServerKey) and hands the
// subscription to the server, so a DM or a mention reaches it with every page closed. Each visit
// checks again: a subscription made for another key (the operator rotated it) is made anew.
// Signing out forgets it first, so a shared device stops hearing of the person.
import { api } from './common.js';

function b64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

let active = false; // this device is registered: its pushes stand for the page's own notifications

// True once this device receives pushes: the page then shows no notification of its own (the
// service worker's would say the same thing twice).
export const pushActive = () => active;

const keyOf = (sub) => (sub.options && sub.options.applicationServerKey ? b64url(new Uint8Array(sub.options.applicationServerKey)) : null);

export function pushSupported() {
  return 'serviceWorker' in navigator && typeof PushManager !== 'undefined' && typeof Notification !== 'undefined';
}

// The worker's registration, or null when the page has none (yet): never waits for one.
async function registration() {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration('/')) || null;
}

// Subscribes this device when notifications are allowed: true when the server has it.
export async function subscribeDevice() {
  const reg = Notification.permission === 'granted' ? await registration() : null;
  if (!reg) return false;
  await navigator.serviceWorker.ready;
  const { publicKey } = await api('GET', '/api/push/key');
  let sub = await reg.pushManager.getSubscription();
  if (sub && keyOf(sub) !== publicKey) {
    await sub.unsubscribe().catch(() => {});
    sub = null;
  }
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
  const { endpoint, keys } = sub.toJSON();
  await api('PUT', '/api/users/@me/push-subscriptions', { endpoint, keys });
  active = true;
  return true;
}

// Before signing out: the server forgets this device, and the browser its subscription.
export async function forgetDevice() {
  active = false;
  const reg = await registration().catch(() => null);
  const sub = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  if (!sub) return;
  await api('DELETE', '/api/users/@me/push-subscriptions', { endpoint: sub.endpoint }).catch(() => {});
  await sub.unsubscribe().catch(() => {});
}
