/**
 * Keyset paging shared by every listing: opaque, versioned cursors and the page-size rule (1 to 1,000).
 *
 * <p>Decision: cursors name a position (a row id, a sort value), never an offset, so pages neither overlap nor
 * skip when rows are added while a client pages; a cursor from another listing is a 400, never a silent first
 * page.
 */
package org.agentmemory.platform.paging;
