/**
 * Brain pages and the dream cycle's logic without container types (spec §12, issue 33): page ids (§12.3), the
 * statements of a page with their evidence and history (merged, never overwritten: spec §13 #9), the stub packing
 * of search results into a token budget (§12.4), the clustering of episodes (§12.2 step 2), the heuristic distiller
 * and the confidence rule (steps 4–5), and the watermark (step 10).
 */
@Pure
package org.agentmemory.brain.control;

import org.agentmemory.platform.Pure;
