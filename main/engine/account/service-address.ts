// Where the key may be sent: the service's address must be https, except on this computer
// (the simulator, a local proxy), so that a key is never sent in the clear over a network.
// A face checks an address the person gives before anything is sent to it.

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Why the address cannot be the service's, in words; null when it can. */
export function serviceAddressProblem(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `"${address}" is not a URL: give the service's address, such as https://api.example.com/v1.`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'The service address must not carry a user name or password: the key is given separately.';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    return LOOPBACK.test(url.hostname)
      ? null
      : `Plain http:// is used only for this computer (localhost, 127.0.0.1, [::1]): use https://${url.host}${url.pathname === '/' ? '' : url.pathname} so that the key is never sent in the clear.`;
  }
  return `The service address must start with https:// (got ${url.protocol}//).`;
}
