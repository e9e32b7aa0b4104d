-- plyspec language server for Neovim 0.10 and later (init.lua; for 0.7-0.9 see plyspec-0.7.lua).
-- .game, .plan and .pddl files get their own filetypes; a YAML file is a plyspec spec
-- when one of its first 200 lines starts with `game:`, `problem:` or `domain:` (the keys
-- plyspec itself reads), so other YAML files (CI workflows, ...) are left alone.
vim.filetype.add({ extension = { game = "plyspec", plan = "plyspecplan", pddl = "pddl" } })

local function is_plyspec_yaml(buf)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, 200, false)) do
    if line:match("^game%s*:") or line:match("^problem%s*:") or line:match("^domain%s*:") then
      return true
    end
  end
  return false
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "plyspec", "plyspecplan", "pddl", "yaml" },
  callback = function(args)
    if vim.bo[args.buf].filetype == "yaml" and not is_plyspec_yaml(args.buf) then
      return
    end
    vim.lsp.start({
      name = "plyspec",
      cmd = { "plyspec", "lsp" },
      root_dir = vim.fs.root(args.buf, { "pyproject.toml", ".git" }) or vim.fn.getcwd(),
    }, { bufnr = args.buf })
  end,
})

-- K (hover) is mapped by Neovim 0.10 itself (and grr, grn, gra for references, rename and
-- code actions in 0.11); gd is not.
vim.api.nvim_create_autocmd("LspAttach", {
  callback = function(args)
    local function map(keys, action) vim.keymap.set("n", keys, action, { buffer = args.buf }) end
    map("gd", vim.lsp.buf.definition)
    map("<leader>ca", vim.lsp.buf.code_action)
    map("<leader>f", vim.lsp.buf.format)
  end,
})
