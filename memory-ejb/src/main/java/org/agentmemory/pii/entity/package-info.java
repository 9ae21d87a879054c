/**
 * The durable PII store's rows (issue 34 item 2): one row per remembered message, its thread and message ids hashed and
 * its detections encrypted when the store has keys (decision 0014).
 */
package org.agentmemory.pii.entity;
