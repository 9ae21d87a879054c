/**
 * PII threads over REST (issue 34 items 1–3): detections per message of a user's thread, consistent placeholders and
 * their restoration, forgetting a thread, and re-encryption under a rotated key. Thin: the bean checks and does the
 * work.
 */
package org.agentmemory.pii;
