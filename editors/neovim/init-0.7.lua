-- cardz: the language server for *.cardz files, Neovim 0.7 and later (Debian 12 ships 0.7.2).
-- Put this in your init.lua, or load it with `nvim -u`; `cardz` must be on PATH.

local clients = {} -- one server per project root

local function project_root(file)
  local folder = vim.fn.fnamemodify(file, ":p:h")
  local project = vim.fn.findfile("pyproject.toml", folder .. ";")
  if project ~= "" then
    return vim.fn.fnamemodify(project, ":p:h")
  end
  local git = vim.fn.finddir(".git", folder .. ";")
  if git ~= "" then
    return vim.fn.fnamemodify(git, ":p:h:h") -- ":p" of a folder ends with "/"
  end
  return folder
end

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.cardz",
  callback = function(args)
    vim.bo[args.buf].filetype = "cardz"
  end,
})

vim.api.nvim_create_autocmd("FileType", {
  pattern = "cardz",
  callback = function(args)
    -- JSON highlighting, set after the filetype's own syntax step has run (it would reset it).
    vim.schedule(function()
      if vim.api.nvim_buf_is_valid(args.buf) then
        vim.bo[args.buf].syntax = "json"
      end
    end)
    local root = project_root(vim.api.nvim_buf_get_name(args.buf))
    if not clients[root] or vim.lsp.client_is_stopped(clients[root]) then
      clients[root] = vim.lsp.start_client({
        name = "cardz",
        cmd = { "cardz", "lsp" },
        root_dir = root,
        on_attach = function(_, bufnr)
          -- The live analysis (random win rate, solver winnability) is a code lens on the design's
          -- name. Refresh only once attached: 0.7 never clears a refresh that found no server.
          vim.api.nvim_create_autocmd({ "BufEnter", "BufWritePost", "CursorHold" }, {
            buffer = bufnr,
            callback = vim.lsp.codelens.refresh,
          })
          vim.lsp.codelens.refresh()
        end,
      })
    end
    if clients[root] then
      vim.lsp.buf_attach_client(args.buf, clients[root])
    end
  end,
})
