/** inpage-agent's page-side entry. It never contains web-llm: the model lives in the worker. */
export { createAgent } from './page/create-agent';
export { listSessions, getSession, deleteSession } from './page/sessions-without-agent';
export { deleteModelCache } from './page/model-cache-without-agent';
export type { CachedModel } from './page/model-cache-without-agent';
export { Agent } from './page/agent';
export type { AgentOptions, AgentCallbacks, RunOptions, RunResult } from './page/options';
export { defineTool } from './tools/define-tool';
export type { Tool, ToolSpec, ToolContext } from './tools/define-tool';
export { fromMCPTool, toMCPTool } from './tools/mcp';
export { exposeToWebMCP, importWebMCPTools, findModelContext } from './page/webmcp';
export type { ModelContextLike, WebMCPTool } from './page/webmcp';
export { importFormTools } from './page/form-tools';
export type { FormToolsOptions } from './page/form-tools';
export type { ToolResult } from './tools/tool-result';
export type { ToolDeclaration, ToolAnnotations } from './tools/declaration';
export { buildReferences, formatReferences } from './tools/references';
export { findItem } from './tools/find-item';
export type { FindItemOptions, FoundItem } from './tools/find-item';
export { z } from './tools/zod';
export { AgentError, isAgentError } from './errors';
export type { AgentErrorCode } from './errors';
export type {
  AgentEvent,
  EventFields,
  EventType,
  UserEvent,
  ModelEvent,
  ToolEvent,
  PartialEvent,
  ApprovalRequestEvent,
  ApprovalEvent,
  EndEvent,
  NoticeEvent,
  Part,
  FunctionCall,
  FunctionResponse,
  EndReason,
  ApprovalRequest,
} from './session/event';
export type { RunCall, CallOutcome } from './session/run-calls';
export type { Session, SessionSummary } from './session/store';
export type { ModelProgress, ModelRequest, ChatMessage, ToolChoice, WarmupResult, PromptRead } from './model/engine';
export type { ScriptedTurn, ModelOptions } from './model/model-options';
// What an engine module (model: { engine: 'module' }) is written against.
export type { ModelEngine, ModelDelta, ModelInfo, ModelToolCall, FinishReason } from './model/engine';
export type { ModelEngineFactory, EngineModuleEngine } from './model/model-options';
export type { AgentStatus, AgentStats, ContextUsage, SessionView } from './contract/protocol';
