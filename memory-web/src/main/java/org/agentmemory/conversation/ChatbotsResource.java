package org.agentmemory.conversation;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.ChatbotStats;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.rest.Params;
import org.agentmemory.security.Audited;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Per-agent administration (spec §11): an agent's conversations, statistics and users. The agent is the
 * {@code chatbotId} query parameter (ids may contain '/', so they never travel in the path); absent means
 * the default agent.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 16 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("chatbots")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chatbots", description = "Per-agent listings and statistics")
@Timeout(10_000)
@Bulkhead(16)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class ChatbotsResource {

    @EJB
    ConversationMemory memory;

    @Inject
    Tenants tenants;

    @GET
    @Path("conversations")
    @Operation(
            summary = "List an agent's conversations",
            description = "Newest first, keyset-paged (list_sessions_by_chatbot).")
    @APIResponse(
            responseCode = "200",
            description = "One page; pass nextCursor back as cursor for the next",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = ConversationSummary.class,
                                                        description =
                                                                "The conversations of this page, newest first; never null."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description = "limit is not 1 to 1000, cursor is not one of ours, or an id" + " breaks a rule")
    public Response conversations(
            @Parameter(description = "The agent; absent for the default agent") @QueryParam("chatbotId")
                    String chatbotId,
            @Parameter(description = "Only this user's") @QueryParam("userId") String userId,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor)
            throws MemoryException {
        return Response.ok(memory.listSessionsByChatbot(
                        tenants.current(),
                        tenants.agentId("chatbotId", chatbotId),
                        tenants.userId("userId", userId),
                        Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                        cursor))
                .build();
    }

    @Audited("chatbot.stats")
    @GET
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
    @Path("stats")
    @Operation(
            summary = "An agent's statistics",
            description = "Conversations, turns, unique users, average turns per conversation.")
    @APIResponse(
            responseCode = "200",
            description = "The statistics",
            content = @Content(schema = @Schema(implementation = ChatbotStats.class)))
    @APIResponse(responseCode = "400", description = "chatbotId breaks the id rules")
    public Response stats(@QueryParam("chatbotId") String chatbotId) throws MemoryException {
        tenants.unscoped("An agent's statistics");
        return Response.ok(memory.chatbotStats(tenants.current(), chatbotId)).build();
    }

    @GET
    @Path("users")
    @Operation(summary = "An agent's users", description = "Ascending user ids, keyset-paged (get_chatbot_users).")
    @APIResponse(
            responseCode = "200",
            description = "One page of user ids",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = String.class,
                                                        description = "User ids of this page, ascending; never null."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description = "limit is not 1 to 1000, cursor is not one of ours, or chatbotId" + " breaks the id rules")
    public Response users(
            @QueryParam("chatbotId") String chatbotId,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor)
            throws MemoryException {
        tenants.unscoped("Listing an agent's users");
        return Response.ok(memory.chatbotUsers(
                        tenants.current(),
                        chatbotId,
                        Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                        cursor))
                .build();
    }
}
