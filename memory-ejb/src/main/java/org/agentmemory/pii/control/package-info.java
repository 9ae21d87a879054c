/**
 * PII threads without the container (issue 34 items 1–3, seed 002): the store port and its two strategies (in-process,
 * bounded; durable over the caller's entity manager, hashed and encrypted), the placeholders of a thread, the built-in
 * detector of structured identifiers, and the crypto. Only {@link org.agentmemory.pii.control.DurableDetectionStore}
 * touches persistence; everything else is plain Java and unit-tested without a container.
 *
 * <p>Decisions (decision 0014): keys hashed with HMAC-SHA256 under a pepper and values encrypted with AES-GCM, both or
 * neither; placeholders are numbered per label in first-seen order and stored with each detection, so a value keeps its
 * placeholder for the life of the thread whatever is remembered later.
 */
package org.agentmemory.pii.control;
