/**
 * HTTP(S)_PROXY and NO_PROXY for the provider clients: undici's EnvHttpProxyAgent (the
 * fetch of Node 20 accepts an undici 7 dispatcher), built from the given environment
 * rather than process.env, and only when a proxy is set (undici then loads lazily).
 */

/** The env value of `name` in upper or lower case (curl's convention: lower case wins). */
function envValue(env: NodeJS.ProcessEnv, name: string): string {
  return env[name.toLowerCase()] ?? env[name] ?? "";
}

/** A proxy URL for messages: without user and password. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return "(unparsable proxy URL)";
  }
}

/** The dispatcher for fetch when HTTP_PROXY or HTTPS_PROXY is set, else undefined (direct connections). */
export async function proxyDispatcher(env: NodeJS.ProcessEnv, target: string): Promise<object | undefined> {
  const httpProxy = envValue(env, "HTTP_PROXY");
  const httpsProxy = envValue(env, "HTTPS_PROXY");
  if (!httpProxy && !httpsProxy) return undefined;
  const { EnvHttpProxyAgent } = await import("undici");
  // Empty strings, not undefined: undefined would make undici read process.env after all.
  const agent = new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy: envValue(env, "NO_PROXY") });
  const via = target.startsWith("https:") && httpsProxy ? `HTTPS_PROXY ${shown(httpsProxy)}` : httpProxy ? `HTTP_PROXY ${shown(httpProxy)}` : "";
  // Named in network errors (as the setting: NO_PROXY may still route this host direct).
  if (via) Object.defineProperty(agent, "via", { value: via });
  return agent;
}

/** Proxy credentials (http://user:pass@proxy) never reach a trace or a message. */
export function proxySecrets(env: NodeJS.ProcessEnv): string[] {
  return ["HTTP_PROXY", "HTTPS_PROXY"].flatMap((name) => urlSecrets(envValue(env, name)));
}

const SECRET_PARAM = /key|token|secret|password|passwd|sig|auth|credential/i;

/**
 * The credentials a URL carries: its password and the values of query
 * parameters named like credentials (`?key=`, `?sig=`), raw and decoded.
 */
export function urlSecrets(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return []; // not a URL: nothing to hide
  }
  const out: string[] = [];
  if (u.password) out.push(decodeURIComponent(u.password), u.password);
  for (const [name, value] of u.searchParams) if (SECRET_PARAM.test(name)) out.push(value, encodeURIComponent(value));
  return out.filter((s) => s.length >= 4);
}
