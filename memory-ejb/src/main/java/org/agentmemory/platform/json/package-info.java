/**
 * JSON forms shared by every component: the canonical, key-sorted, compact form used wherever bytes must
 * be stable (normalized tool inputs and outputs, token counts, activity lines, content ids).
 */
package org.agentmemory.platform.json;
