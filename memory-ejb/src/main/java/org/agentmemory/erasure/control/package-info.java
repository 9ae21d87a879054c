/**
 * Right to erasure without container types (issue 34 item 4): the running tally of what an erasure deleted, store by
 * store, that becomes its receipt.
 */
@Pure
package org.agentmemory.erasure.control;

import org.agentmemory.platform.Pure;
