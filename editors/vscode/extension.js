// The plyspec extension: starts `plyspec lsp` (setting plyspec.command) for .game, .plan and
// .pddl files, and for a YAML file when it is a plyspec spec: a line of it starts with
// `game:`, `problem:` or `domain:` (the keys plyspec reads), decided when the file is
// opened. Other YAML files (CI workflows, ...) are never sent to the server.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

const SPEC_YAML = /^(game|problem|domain)\s*:/m;
const opened = new Set();      // the documents the server was told about
let client;

function isPlyspec(document) {
  return document.languageId !== "yaml" || SPEC_YAML.test(document.getText());
}

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("plyspec").get("command");
  const known = (document) => opened.has(document.uri.toString());
  client = new LanguageClient("plyspec", "plyspec", { command, args }, {
    documentSelector: ["plyspec-game", "plyspec-plan", "pddl", "yaml"].map(
      (language) => ({ scheme: "file", language })),
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.pddl") },
    middleware: {
      didOpen: (document, next) => {
        if (!isPlyspec(document)) return Promise.resolve();
        opened.add(document.uri.toString());
        return next(document);
      },
      didChange: (event, next) => (known(event.document) ? next(event) : Promise.resolve()),
      didSave: (document, next) => (known(document) ? next(document) : Promise.resolve()),
      didClose: (document, next) => {
        if (!opened.delete(document.uri.toString())) return Promise.resolve();
        return next(document);
      },
    },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
