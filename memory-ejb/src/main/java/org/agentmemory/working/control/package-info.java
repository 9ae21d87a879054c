/**
 * The rules of working memory (issue 35 item 1, seed 003), without the container: which tier a new item goes to,
 * which short-term items are evicted (oldest first), when an item is promoted (by accesses or by importance), how the
 * context stack re-ranks full-text hits, how a filter matches metadata, and what the context summary holds and how it
 * reads. The store and the search run in {@code working.boundary} over these rules.
 *
 * <p>Decisions (decision 0015): the seed's defaults are kept (capacity 20, promotion after 3 reads, importance
 * threshold 0.7, a 70/30 blend of text score and context match, a summary of 3 frames, 5 recent and 3 important
 * items); where the seed has a bug it is fixed here and the Javadoc of the rule says which: a promotion moves the item
 * once instead of copying it on every later read, full-text scores are scaled to (0, 1] before the blend, context
 * words are compared without the punctuation of Python's {@code str(dict)}, the summary ranks important items by
 * their own importance, and raising an item's importance to the threshold promotes it.
 */
@Pure
package org.agentmemory.working.control;

import org.agentmemory.platform.Pure;
