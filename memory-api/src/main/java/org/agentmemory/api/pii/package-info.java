/**
 * PII detection threads (issue 34 items 1–3, seed 002): the detections found in each message of a thread, kept per
 * (tenant, user, thread), with one stable placeholder per value for the whole thread and its restoration.
 */
package org.agentmemory.api.pii;
