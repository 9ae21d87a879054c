/**
 * One call to an OpenAI-compatible chat-completions endpoint, shared by reflection (spec §10.4) and the dream
 * cycle's distillation (spec §12.2 step 4): the MicroProfile REST Client interface, the request and response JSON,
 * and the exception for an unusable answer.
 */
package org.agentmemory.platform.llm;
