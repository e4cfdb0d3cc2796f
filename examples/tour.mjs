// A first session with the API as a person: register, create a server, invite a friend.
//   node tour.mjs bia 'outra senha longa'
const base = process.env.PRACA_URL || 'http://127.0.0.1:8080';
const [username = 'bia', password = 'outra senha longa'] = process.argv.slice(2);
const call = async (method, path, body, token) => {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body && JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error}`);
  return data;
};

const { token } = await call('POST', '/api/auth/register', { username, password });
const { server, channels } = await call('POST', '/api/servers', { name: `Praça de ${username}` }, token);
const { code } = await call('POST', `/api/servers/${server.id}/invites`, {}, token);
console.log(`#${channels[0].name} is ready in "${server.name}"; invite code ${code}`);
