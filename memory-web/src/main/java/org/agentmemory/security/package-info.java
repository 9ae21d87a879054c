/**
 * Who calls: every REST request carries a signed bearer token (MicroProfile JWT claims: {@code iss}, {@code aud},
 * {@code exp}, {@code sub}, {@code groups}) from which the caller's tenant and roles come, never from the request.
 *
 * <p>Decision (docs/decisions/0010): tokens are verified in a JAX-RS filter with jose4j, the JOSE library under
 * SmallRye JWT, instead of the server's MP-JWT HTTP mechanism, so that 401 and 403 are problem bodies, an explicit
 * {@code memory.security.mode=none} exists for local experiments, and Open Liberty behaves the same.
 */
package org.agentmemory.security;
