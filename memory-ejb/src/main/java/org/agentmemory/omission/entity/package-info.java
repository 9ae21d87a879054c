/**
 * Omission entities: the content (one row per conversation and content id) and the per-turn index.
 */
package org.agentmemory.omission.entity;
