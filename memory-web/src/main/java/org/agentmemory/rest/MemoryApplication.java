package org.agentmemory.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.info.License;

/**
 * The REST API, version 1, under {@code /api/v1}. Resources and providers are discovered by scanning.
 * The OpenAPI document is served by the server at {@code /openapi}.
 */
@ApplicationPath("/api/v1")
@OpenAPIDefinition(
        info =
                @Info(
                        title = "Agent Memory",
                        version = "1",
                        description =
                                "Conversation memory for AI agents: histories of turns keyed by (tenant, chatbot, user, session),"
                                        + " normalized and token-counted on write. Errors are RFC 9457 application/problem+json.",
                        license = @License(name = "Apache-2.0")))
public class MemoryApplication extends Application {}
