package org.agentmemory.platform.llm;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * An OpenAI-compatible chat-completions endpoint as a MicroProfile REST Client. The base URI is the API root
 * (e.g. {@code https://api.openai.com/v1}); bodies are the JSON of {@link ChatCompletionsJson}. A non-2xx answer
 * raises a {@code WebApplicationException} (the client's default response mapper).
 */
@Path("/chat/completions")
public interface ChatCompletionsApi {

    /**
     * @param authorization {@code Bearer <key>}, or {@code null} for endpoints without authentication
     * @param body          the request JSON
     * @return the response JSON
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    String complete(@HeaderParam("Authorization") String authorization, String body);
}
