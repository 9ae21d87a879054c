/**
 * Text measured the way the spec measures it: lengths and slices in Unicode code points, counted
 * truncation markers with locale-independent digit grouping.
 */
package org.agentmemory.platform.text;
