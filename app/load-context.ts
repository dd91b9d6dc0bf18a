declare module "@remix-run/node" {
  interface AppLoadContext {
    requestId: string;
    cspNonce: string;
    clientIp: string;
  }
}

export {};
