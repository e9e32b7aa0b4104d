"""The documented Neovim set-up, run as written in a headless Neovim: the snippet of
editors/neovim/ for the installed version is the whole init.lua, `plyspec` on PATH is
this checkout.  Opening shipped specs and files with mistakes must give plyspec's
diagnostics, hovers and `gd`, formatting must keep every comment, `.pddl` files must
attach, and a YAML file that is not a spec (a CI workflow) must not.  Skipped, saying
so, when `nvim` is not installed."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, SPECS
from framework.lsp.formatting import comments, format_text

NVIM = shutil.which("nvim")
pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed: the Neovim set-up is not exercised")

DRIVER = r"""
local out, dir = {}, vim.env.PLYSPEC_DIR
local function attached(buf)
  local n = 0
  for _ in pairs(vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)) do n = n + 1 end
  return n
end
local function settle(buf, want)     -- wait for the client and for diagnostics (`want` of them at least)
  vim.wait(120000, function() return attached(buf) > 0 and #vim.diagnostic.get(buf) >= want end, 50)
end
local function hover(buf, line, col)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 120000) or {}
  for _, a in pairs(answers) do if a.result then return a.result.contents.value end end
  return vim.NIL
end
local function diagnostics(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(found, { d.lnum, d.col, d.message }) end
  return found
end
-- the server publishes a document's diagnostics before it answers a hover in it
local function visit(name, want)
  vim.cmd("edit " .. dir .. "/" .. name)
  local buf = vim.api.nvim_get_current_buf()
  if want then settle(buf, want) end   -- (a client attaches on the FileType event, at once)
  out[name] = { filetype = vim.bo.filetype, clients = attached(buf), diagnostics = diagnostics(buf),
                gd = vim.fn.maparg("gd", "n") ~= "" }
  return buf
end

local buf = visit("messy.game", 0)
out["messy.game"].hover = hover(buf, tonumber(vim.env.PLYSPEC_MOVER_ROW), tonumber(vim.env.PLYSPEC_MOVER_COL))
out["messy.game"].diagnostics = diagnostics(buf)
if vim.lsp.buf.format then vim.lsp.buf.format({ timeout_ms = 120000 }) else vim.lsp.buf.formatting_sync(nil, 120000) end
out["messy.game"].formatted = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
visit("broken.game", 1)
visit("emoji.game", 1)
visit("task01.pddl", 1)
buf = visit("tictactoe.yaml", 0)
out["tictactoe.yaml"].hover = hover(buf, 7, 23)
out["tictactoe.yaml"].diagnostics = diagnostics(buf)
visit("workflow.yaml", nil)
vim.fn.writefile({ vim.fn.json_encode(out) }, dir .. "/out.json")
vim.cmd("qall!")
"""


def nvim_version() -> tuple:
    first = subprocess.run([NVIM, "--version"], capture_output=True, text=True, timeout=60).stdout.split("\n")[0]
    return tuple(int(x) for x in re.search(r"(\d+)\.(\d+)\.(\d+)", first).groups())


def test_the_documented_neovim_setup_works_as_written(tmp_path):
    version = nvim_version()
    snippet = ROOT / "editors/neovim" / ("plyspec.lua" if version >= (0, 10) else "plyspec-0.7.lua")
    if version < (0, 7):
        pytest.skip(f"nvim {version} is older than the oldest supported (0.7)")
    bin_dir = tmp_path / "bin"                      # `plyspec` on PATH runs this checkout
    bin_dir.mkdir()
    (bin_dir / "plyspec").write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m framework "$@"\n')
    (bin_dir / "plyspec").chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    game = (SPECS / "tictactoe.game").read_text()
    messy = game.replace("players X, O", "players X ,O   # who plays\n\n\n").replace(
        "    then board[c] = mover", "    # the mover takes the cell\n    then   board[c] = mover  ")
    (work / "messy.game").write_text(messy)
    (work / "broken.game").write_text(game.replace("if board[c] == empty", "if bord[c] == empty"))
    (work / "emoji.game").write_text(game.replace('display empty ".", X "X", O "O"', 'display empty "😀", X "X", Q "O"'))
    shutil.copy(SPECS / "tictactoe.yaml", work / "tictactoe.yaml")
    gripper = ROOT / "planners/data/pddl/gripper"
    shutil.copy(gripper / "domain.pddl", work / "domain.pddl")
    (work / "task01.pddl").write_text((gripper / "task01.pddl").read_text().replace(
        "(at ball1 roomb))", "(at ball1 roomb) (clean rooma))"))
    (work / "workflow.yaml").write_text("name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n")
    (tmp_path / "driver.lua").write_text(DRIVER)
    mover_row = messy.split("\n").index("    then   board[c] = mover  ")
    env = {**os.environ, "PLYSPEC_MOVER_ROW": str(mover_row), "PLYSPEC_MOVER_COL": "24", "PATH": f"{bin_dir}:{os.environ['PATH']}", "PLYSPEC_DIR": str(work),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    subprocess.run([NVIM, "--headless", "-u", str(snippet), "-c", f"luafile {tmp_path / 'driver.lua'}"],
                   cwd=work, env=env, timeout=600, capture_output=True, stdin=subprocess.DEVNULL)
    out = json.loads((work / "out.json").read_text())

    m = out["messy.game"]
    assert (m["filetype"], m["clients"], m["diagnostics"], m["gd"]) == ("plyspec", 1, [], True)
    assert "player to move" in m["hover"]
    assert m["formatted"] == format_text("messy.game", messy) and comments(m["formatted"]) == comments(messy)
    [(line, col, message)] = out["broken.game"]["diagnostics"]
    assert (line, col, message) == (6, 7, "unknown name `bord`\nhint: did you mean `board`?")
    [(line, col, message)] = out["emoji.game"]["diagnostics"]   # Neovim 0.7-0.10 speak UTF-16, 0.11 UTF-8;
    row = (work / "emoji.game").read_text().split("\n")[line]  # either way it shows byte columns
    assert col == len(row[:row.index('Q "O"')].encode()) and "`Q`" in message
    assert out["task01.pddl"]["filetype"] == "pddl" and "clean" in out["task01.pddl"]["diagnostics"][0][2]
    y = out["tictactoe.yaml"]
    assert (y["filetype"], y["clients"], y["diagnostics"]) == ("yaml", 1, []) and "player to move" in y["hover"]
    assert out["workflow.yaml"]["clients"] == 0


def test_both_snippets_compile():
    """The snippet for the other Neovim version is at least valid Lua (the installed
    Neovim can only run its own)."""
    script = ("lua for _, f in ipairs({'plyspec.lua', 'plyspec-0.7.lua'}) do "
              "local ok, err = loadfile(f); io.stdout:write(f .. ' ' .. tostring(err) .. '\\n') end")
    done = subprocess.run([NVIM, "--headless", "-u", "NONE", "-c", script, "-c", "qa!"], cwd=ROOT / "editors/neovim",
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert (done.stdout + done.stderr).split() == ["plyspec.lua", "nil", "plyspec-0.7.lua", "nil"]
