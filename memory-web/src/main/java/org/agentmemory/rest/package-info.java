/**
 * The REST layer's shared machinery: the application path, strict JSON, RFC 9457 problem details for every
 * failure (a fault-tolerance policy that gives up is a 503 with Retry-After), body limits, the caller's tenant, and
 * the responses every operation shares in the OpenAPI document.
 *
 * <p>Decisions: resources are thin (validate, convert, delegate to the EJB local views); ids never travel
 * in URL paths except the service's numeric conversation id, so ids containing '/' or '%2F' round-trip
 * through query parameters and JSON bodies; malformed parameters are 400 (never JAX-RS's 404).
 */
package org.agentmemory.rest;
