/**
 * The identity of EJB callers (issue 32 item 2): the tenant and roles of a remote client or of an authenticated
 * caller in another deployment, from the server's security domain and {@code memory.security.ejb.tenants}.
 */
package org.agentmemory.platform.security;
