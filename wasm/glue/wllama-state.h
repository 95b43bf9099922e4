// A sequence's state out of and back into llama.cpp, through the server's own slot save and restore (so the
// slot's cached tokens are set with the state, and the next completion that starts with them reuses them).
//
// Both actions speak a small binary format of ours (wllama's dispatcher hands an action a pointer, not a length):
//   request:  "WSTQ" | u32 payload length | payload          (save: empty payload; restore: the saved bytes)
//   response: "WSTR" | u32 status (0 ok) | u32 tokens | u32 payload length | payload
//             (save: llama.cpp's sequence file, tokens first; restore: empty; failure: the reason, as text)
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace wllama_state
{
  static const char *FILE_PATH = "/wllama-state.bin";

  static void reply(glue_outbuf &out, uint32_t status, uint32_t n_tokens, const char *payload, size_t size)
  {
    out.data.clear();
    const uint32_t head[4] = {0x52545357u /* "WSTR" */, status, n_tokens, (uint32_t)size};
    out.data.insert(out.data.end(), (const char *)head, (const char *)head + sizeof(head));
    out.data.insert(out.data.end(), payload, payload + size);
  }

  static void fail(glue_outbuf &out, const std::string &why)
  {
    reply(out, 1, 0, why.data(), why.size());
  }

  static bool read_request(const char *req_raw, std::vector<char> &payload, std::string &why)
  {
    uint32_t head[2];
    memcpy(head, req_raw, sizeof(head));
    if (head[0] != 0x51545357u /* "WSTQ" */)
    {
      why = "not a state request";
      return false;
    }
    payload.assign(req_raw + sizeof(head), req_raw + sizeof(head) + head[1]);
    return true;
  }

  // Runs one slot task (save or restore of slot 0) through the server and returns its result.
  static server_task_result_ptr run_slot_task(wllama_context &app, server_task_type type)
  {
    auto rd = app.ctx_server.get_response_reader();
    server_task task(type);
    task.id = rd.get_new_id();
    task.slot_action.id_slot = 0;
    task.slot_action.filename = FILE_PATH + 1;
    task.slot_action.filepath = FILE_PATH;
    rd.post_task(std::move(task));
    app.run_loop();
    auto [result, is_error] = app.get_next_result(rd);
    return std::move(result);
  }

  // The state file is read and written by llama.cpp itself; wllama's read hook must leave it alone (it would ask
  // the page for a model file of that name).
  struct local_files
  {
    bool was_async = wllama_fs::use_async;
    local_files() { wllama_fs::use_async = false; }
    ~local_files() { wllama_fs::use_async = was_async; }
  };

  static void save(wllama_context &app, glue_outbuf &out)
  {
    local_files local;
    auto result = run_slot_task(app, SERVER_TASK_TYPE_SLOT_SAVE);
    auto *saved = dynamic_cast<server_task_result_slot_save_load *>(result.get());
    if (!saved)
    {
      remove(FILE_PATH);
      return fail(out, result ? result->to_json().dump() : "the slot was not saved");
    }
    std::vector<char> bytes;
    if (FILE *f = fopen(FILE_PATH, "rb"))
    {
      char chunk[65536];
      size_t n;
      while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        bytes.insert(bytes.end(), chunk, chunk + n);
      fclose(f);
    }
    remove(FILE_PATH);
    reply(out, 0, (uint32_t)saved->n_tokens, bytes.data(), bytes.size());
  }

  static void restore(wllama_context &app, const char *req_raw, glue_outbuf &out)
  {
    std::vector<char> payload;
    std::string why;
    if (!read_request(req_raw, payload, why))
      return fail(out, why);
    local_files local;
    if (FILE *f = fopen(FILE_PATH, "wb"))
    {
      fwrite(payload.data(), 1, payload.size(), f);
      fclose(f);
    }
    auto result = run_slot_task(app, SERVER_TASK_TYPE_SLOT_RESTORE);
    remove(FILE_PATH);
    auto *restored = dynamic_cast<server_task_result_slot_save_load *>(result.get());
    if (!restored)
      return fail(out, result ? result->to_json().dump() : "the slot was not restored");
    reply(out, 0, (uint32_t)restored->n_tokens, nullptr, 0);
  }
}
