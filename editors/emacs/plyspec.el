;;; plyspec.el --- plyspec language server with eglot  -*- lexical-binding: t; -*-
;; Put this in your init file (eglot is built into Emacs 29; on Emacs 26.3-28 first
;; M-x package-install RET eglot).  .game, .plan and .pddl files get their own modes; a
;; YAML file starts plyspec only when one of its lines starts with `game:', `problem:'
;; or `domain:' (the keys plyspec reads), so other YAML files are left alone.
(require 'eglot)

(define-derived-mode plyspec-game-mode prog-mode "plyspec-game"
  "Major mode for plyspec .game files."
  (setq-local comment-start "# "))
(define-derived-mode plyspec-plan-mode prog-mode "plyspec-plan"
  "Major mode for plyspec .plan files."
  (setq-local comment-start "# "))
(define-derived-mode plyspec-pddl-mode prog-mode "PDDL"
  "Major mode for PDDL files."
  (setq-local comment-start "; "))
(add-to-list 'auto-mode-alist '("\\.game\\'" . plyspec-game-mode))
(add-to-list 'auto-mode-alist '("\\.plan\\'" . plyspec-plan-mode))
(add-to-list 'auto-mode-alist '("\\.pddl\\'" . plyspec-pddl-mode))

(add-to-list 'eglot-server-programs
             '((plyspec-game-mode plyspec-plan-mode plyspec-pddl-mode yaml-mode yaml-ts-mode)
               . ("plyspec" "lsp")))

(defun plyspec-yaml-p ()
  "Non-nil when the current YAML buffer is a plyspec spec."
  (save-excursion
    (goto-char (point-min))
    (re-search-forward "^\\(game\\|problem\\|domain\\)[ \t]*:" nil t)))

(dolist (hook '(plyspec-game-mode-hook plyspec-plan-mode-hook plyspec-pddl-mode-hook))
  (add-hook hook #'eglot-ensure))
(dolist (hook '(yaml-mode-hook yaml-ts-mode-hook))
  (add-hook hook (lambda () (when (plyspec-yaml-p) (eglot-ensure)))))

(provide 'plyspec)
;;; plyspec.el ends here
