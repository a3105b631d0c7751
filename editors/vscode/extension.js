// The cardz extension: starts `cardz lsp` over stdio for *.cardz files (which VS Code highlights as JSON).
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("cardz");
  const [command, ...args] = settings.get("server.command", ["cardz", "lsp"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    // Only design files: the server would read any other JSON document as a design.
    documentSelector: [{ scheme: "file", language: "json", pattern: "**/*.cardz" }],
    initializationOptions: { liveAnalysis: settings.get("liveAnalysis.enabled", true) ? {} : false },
  };
  client = new LanguageClient("cardz", "cardz", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `cardz: cannot start \`${[command, ...args].join(" ")}\` (${error.message}). ` +
        "Install it with pip install 'cardz-tools[lsp]', or set cardz.server.command."
    );
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
