/**
 * Conversation recall contract: searching stored conversation messages by words, by meaning or both, and
 * rebuilding the search indexes.
 *
 * <p>Decisions: a hit is one message (user message or assistant response) with its turn id, role and external
 * id, so callers can cite exactly what was said; scopes are a user (optionally one agent) or one conversation;
 * hybrid is the default mode.
 */
package org.agentmemory.api.recall;
