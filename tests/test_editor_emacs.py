"""The documented Emacs set-up (editors/emacs/plyspec.el with eglot), run as written in
a batch Emacs with `plyspec` on PATH being this checkout: a `.game` file opens in its mode,
eglot connects, plyspec's diagnostic arrives, and `eglot-format-buffer` keeps every
comment.  Skipped, saying so, when Emacs or eglot is not installed."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, SPECS
from framework.lsp.formatting import format_text

EMACS = shutil.which("emacs")


def has_eglot() -> bool:
    if EMACS is None:
        return False
    found = subprocess.run([EMACS, "--batch", "-q", "--eval", "(princ (if (require 'eglot nil t) \"yes\" \"no\"))"],
                           capture_output=True, text=True, timeout=120)
    return found.stdout.strip().endswith("yes")


pytestmark = pytest.mark.skipif(not has_eglot(), reason="Emacs with eglot is not installed: the Emacs set-up is not exercised")

DRIVER = r"""(load (expand-file-name "plyspec.el" (getenv "PLYSPEC_EDITORS")))
(defun wait-until (pred)
  (let ((n 0)) (while (and (not (funcall pred)) (< n 2400)) (accept-process-output nil 0.05) (setq n (1+ n)))))
(defun diags ()
  (mapcar (lambda (d) (list (line-number-at-pos (flymake-diagnostic-beg d)) (flymake-diagnostic-text d)))
          (or eglot--diagnostics (flymake-diagnostics))))
(find-file (expand-file-name "broken.game"))
(run-hooks (quote post-command-hook))   ; as after any command in a live Emacs (eglot-ensure waits for it)
(wait-until (lambda () (and (eglot-current-server) (diags))))
(let ((mode major-mode) (server (and (eglot-current-server) t)) (found (diags)))
  (with-temp-file (expand-file-name "broken.out")
    (insert (format "%s\n%s\n" mode server))
    (dolist (d found) (insert (format "%s\t%s\n" (car d) (cadr d))))))
(find-file (expand-file-name "messy.game"))
(run-hooks (quote post-command-hook))
(wait-until (lambda () (eglot-current-server)))
(eglot-format-buffer)
(let ((text (buffer-string)) (mode major-mode))
  (with-temp-file (expand-file-name "messy.out") (insert (format "%s\n" mode) text)))
(kill-emacs 0)
"""


def test_the_documented_emacs_setup_works_as_written(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "plyspec").write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m framework "$@"\n')
    (bin_dir / "plyspec").chmod(0o755)
    game = (SPECS / "tictactoe.game").read_text()
    messy = game.replace("players X, O", "players X ,O   # who plays\n\n\n")
    (tmp_path / "messy.game").write_text(messy)
    (tmp_path / "broken.game").write_text(game.replace("if board[c] == empty", "if bord[c] == empty"))
    (tmp_path / "driver.el").write_text(DRIVER)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PLYSPEC_EDITORS": str(ROOT / "editors/emacs"),
           "HOME": str(tmp_path)}
    subprocess.run([EMACS, "--batch", "-q", "-l", str(tmp_path / "driver.el")], cwd=tmp_path, env=env,
                   timeout=600, capture_output=True, stdin=subprocess.DEVNULL)
    mode, server, *found = (tmp_path / "broken.out").read_text().split("\n", 2)[:2] + \
        [(tmp_path / "broken.out").read_text().split("\n", 2)[2]]
    assert (mode, server) == ("plyspec-game-mode", "t")
    assert found == ["7\tplyspec: unknown name `bord`\nhint: did you mean `board`?\n"]
    mode, formatted = (tmp_path / "messy.out").read_text().split("\n", 1)
    assert mode == "plyspec-game-mode" and formatted == format_text("messy.game", messy)
    assert "# who plays" in formatted
