/**
 * Text measured the way the spec measures it: lengths and slices in Unicode code points, counted
 * truncation markers with locale-independent digit grouping.
 */
@Pure
package org.agentmemory.platform.text;

import org.agentmemory.platform.Pure;
