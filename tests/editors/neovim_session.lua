-- Drives a headless Neovim started with the documented init (`nvim --headless -u init-0.7.lua`):
-- opens the design named by $CARDZ_DESIGN, then records what a user would see after each step in
-- $CARDZ_RESULTS (JSON). Every wait is bounded; Neovim always quits.
local results = { steps = {} }
local design = vim.env.CARDZ_DESIGN
local WAIT = 30000

local function text()
  return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
end

local function client()
  for _, c in pairs(vim.lsp.buf_get_clients(0)) do
    if c.name == "cardz" then
      return c
    end
  end
end

local function cursor_on(needle, shift)
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  for number, line in ipairs(lines) do
    local at = line:find(needle, 1, true)
    if at then
      vim.api.nvim_win_set_cursor(0, { number, at - 1 + shift })
      return
    end
  end
  error("not in the buffer: " .. needle)
end

local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(design))
  results.filetype = vim.bo.filetype
  vim.wait(1000, function() return vim.bo.syntax == "json" end, 20)
  results.syntax = vim.bo.syntax
  assert(vim.wait(WAIT, function() return #vim.diagnostic.get(0) > 0 end, 50), "no diagnostics arrived")
  results.attached = client() ~= nil
  results.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(results.diagnostics, { code = code, message = d.message, lnum = d.lnum, col = d.col, end_col = d.end_col })
  end
  table.insert(results.steps, "diagnostics")

  -- The quick fix of the first diagnostic, as `vim.lsp.buf.code_action()` would request and apply it.
  local first = vim.diagnostic.get(0)[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, first.lnum) }
  local answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, WAIT) or {}
  local applied = nil
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if action.edit and not applied then
        vim.lsp.util.apply_workspace_edit(action.edit, client().offset_encoding)
        applied = action.title
      end
    end
  end
  results.quick_fix = applied
  results.after_fix = text()
  assert(vim.wait(WAIT, function() return #vim.diagnostic.get(0) == 0 end, 50), "the fix left diagnostics")
  table.insert(results.steps, "quick fix")

  vim.lsp.buf.formatting_sync(nil, WAIT)
  results.formatted = text()
  table.insert(results.steps, "format")

  cursor_on('"name": "cell"', 10)
  vim.lsp.buf.rename("grid")
  assert(vim.wait(WAIT, function() return not text():find('"cell"', 1, true) end, 50), "the rename did not arrive")
  results.renamed = text()
  table.insert(results.steps, "rename")

  local symbols = vim.lsp.buf_request_sync(0, "textDocument/documentSymbol",
    { textDocument = vim.lsp.util.make_text_document_params() }, WAIT) or {}
  results.outline = {}
  for _, answer in pairs(symbols) do
    for _, symbol in ipairs(answer.result or {}) do
      local children = {}
      for _, child in ipairs(symbol.children or {}) do
        table.insert(children, child.name)
      end
      table.insert(results.outline, { name = symbol.name, children = children })
    end
  end
  table.insert(results.steps, "outline")

  -- Saving starts the live analysis; its figures arrive as the code lens on the design's name.
  vim.cmd("write")
  local function lens_title()
    for _, lens in ipairs(vim.lsp.codelens.get(0) or {}) do
      if lens.command and lens.command.title:find("solver", 1, true) then
        return lens.command.title, lens.range.start.line
      end
    end
  end
  for _ = 1, 120 do
    if lens_title() then
      break
    end
    vim.lsp.codelens.refresh() -- as the documented CursorHold autocommand does
    vim.wait(500)
  end
  assert(lens_title(), "no live analysis lens")
  results.lens, results.lens_line = lens_title()
  table.insert(results.steps, "live analysis")
end

local ok, problem = pcall(run)
if not ok then
  results.error = tostring(problem)
end
local out = io.open(vim.env.CARDZ_RESULTS, "w")
out:write(vim.fn.json_encode(results))
out:close()
vim.cmd("qa!")
