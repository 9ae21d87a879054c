/**
 * Answer memory contract: an agent's question/answer pairs by turn id.
 */
package org.agentmemory.api.answer;
