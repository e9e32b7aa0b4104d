-- plyspec language server for Neovim 0.7, 0.8 and 0.9 (init.lua; for 0.10+ see plyspec.lua).
-- .game, .plan and .pddl files get their own filetypes; a YAML file is a plyspec spec
-- when one of its first 200 lines starts with `game:`, `problem:` or `domain:` (the keys
-- plyspec itself reads), so other YAML files (CI workflows, ...) are left alone.
local filetypes = { game = "plyspec", plan = "plyspecplan", pddl = "pddl" }
for extension, filetype in pairs(filetypes) do
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    pattern = "*." .. extension,
    callback = function() vim.bo.filetype = filetype end,
  })
end

local function is_plyspec_yaml(buf)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, 200, false)) do
    if line:match("^game%s*:") or line:match("^problem%s*:") or line:match("^domain%s*:") then
      return true
    end
  end
  return false
end

local function on_attach(_, buf)
  local function map(keys, action) vim.keymap.set("n", keys, action, { buffer = buf }) end
  map("K", vim.lsp.buf.hover)
  map("gd", vim.lsp.buf.definition)
  map("gr", vim.lsp.buf.references)
  map("<leader>ca", vim.lsp.buf.code_action)
  map("<leader>f", function()
    if vim.lsp.buf.format then vim.lsp.buf.format() else vim.lsp.buf.formatting_sync() end
  end)
end

local client_id = nil
vim.api.nvim_create_autocmd("FileType", {
  pattern = { "plyspec", "plyspecplan", "pddl", "yaml" },
  callback = function(args)
    if vim.bo[args.buf].filetype == "yaml" and not is_plyspec_yaml(args.buf) then
      return
    end
    if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
      client_id = vim.lsp.start_client({
        name = "plyspec",
        cmd = { "plyspec", "lsp" },
        root_dir = vim.fn.getcwd(),
        on_attach = on_attach,
      })
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})
