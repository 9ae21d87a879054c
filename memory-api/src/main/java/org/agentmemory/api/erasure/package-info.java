/**
 * Right-to-erasure contract (issue 34 item 4): erase a subject (a user in a tenant) from every store, with a receipt.
 */
package org.agentmemory.api.erasure;
