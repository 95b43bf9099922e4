// Stands in for llama.cpp's server-decision.h, which the llama.cpp of PyPI's llama-cpp-python sdist predates.
// wllama's glue names these for its "systemone" action only; with no decision model type here that action
// answers "This model is not a decision model", and nothing else changes.
#pragma once

#include "server-task.h"

#include <vector>

enum common_decision_type
{
  COMMON_DECISION_TYPE_NONE,
};

static constexpr server_task_type SERVER_TASK_TYPE_DECISION = SERVER_TASK_TYPE_COMPLETION;

struct server_decision_question
{
  std::string id;
};

struct server_task_result_decision : server_task_result
{
  std::vector<float> scores;
  int32_t n_tokens = 0;
  json to_json() override { return json::object(); }
};

struct server_decision_context
{
  common_decision_type type = COMMON_DECISION_TYPE_NONE;

  void init(const llama_model *) {}
  std::vector<server_decision_question> parse_questions(const json &) const { return {}; }
  template <typename Files>
  json parse_state(const json &, Files &) const { return json::object(); }
  size_t n_variants(const server_decision_question &) const { return 0; }
  template <typename... Args>
  void fill_task(Args &&...) const {}
  bool can_share_prompt() const { return false; }
  json format_answer(const server_decision_question &, const std::vector<std::vector<float>> &) const { return json::object(); }
};

inline std::vector<server_task> server_decision_group_tasks(std::vector<server_task> &&tasks, int32_t)
{
  return std::move(tasks);
}
