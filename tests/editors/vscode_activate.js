// Activates the VS Code extension with stand-ins for VS Code and its language client (VS Code itself cannot be
// installed here without downloading it) and prints, as JSON, what the extension asked for: the settings it read,
// how it starts the server, and the client options (document selector, initializationOptions).
// Usage: node vscode_activate.js path/to/extension.js '{"cardz.liveAnalysis.enabled": false}'
"use strict";

const Module = require("module");
const path = require("path");

const [extensionMain, settingsJson] = process.argv.slice(2);
const settings = JSON.parse(settingsJson || "{}");
const read = [];
let made = null;

const vscode = {
  workspace: {
    getConfiguration: (section) => ({
      get: (key, fallback) => {
        const name = `${section}.${key}`;
        read.push({ name, fallback });
        return name in settings ? settings[name] : fallback;
      },
    }),
  },
  window: { showErrorMessage: (message) => { made = { ...made, error: message }; } },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    made = { id, name, serverOptions, clientOptions };
  }
  start() { return Promise.resolve(); }
  stop() { return Promise.resolve(); }
  dispose() {}
}

const stubs = {
  vscode,
  "vscode-languageclient/node": { LanguageClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } },
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request in stubs ? stubs[request] : load.call(this, request, ...rest);
};

const extension = require(path.resolve(extensionMain));
const context = { subscriptions: [] };
Promise.resolve(extension.activate(context)).then(() => {
  process.stdout.write(JSON.stringify({ ...made, read, subscriptions: context.subscriptions.length,
                                        deactivate: typeof extension.deactivate }));
});
