/**
 * Right to erasure (issue 34 item 4): {@link org.agentmemory.erasure.boundary.SubjectErasureBean} erases a subject from
 * every store through the other components' boundaries, in bounded transactions, and answers a receipt.
 */
package org.agentmemory.erasure.boundary;
