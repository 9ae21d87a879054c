package org.agentmemory.conversation;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.ChatbotStats;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.Problem;
import org.agentmemory.security.Audited;
import org.agentmemory.security.OutOfScopeException;
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
 * Per-agent administration (spec §11): an agent's conversations, statistics and users, and the deletion of its
 * conversations (issue 34 item 5). The agent is the
 * {@code chatbotId} query parameter (ids may contain '/', so they never travel in the path); absent means
 * the default agent.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 16 concurrent calls, 503 + {@code Retry-After} beyond either; the delete
 * 600,000 ms and 2 concurrent calls.
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

    /**
     * {@code DELETE /chatbots/conversations?chatbotId=&userId=} (issue 34 item 5): deletes an agent's conversations,
     * or one user's with the agent, in batches of 100 per transaction, and answers {@code {"deleted": n}}. Every
     * user's needs {@code memory-admin}; one user's {@code memory-writer} (a token narrowed to a user deletes that
     * user's only).
     *
     * @param chatbotId the agent; required (400 {@code chatbotId}, rule {@code required})
     * @param userId    only this user's conversations, or absent for every user's
     * @return 200 with the count
     * @throws MemoryException when an id is missing or breaks the id rules (400)
     */
    @Audited("chatbot.conversations.delete")
    @DELETE
    @Path("conversations")
    @Timeout(600_000)
    @Bulkhead(2)
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Delete an agent's conversations",
            description = "Deletes every conversation of the agent (or only the given user's) with everything stored"
                    + " under each: turns, tool invocations, omissions, searchable messages with their vectors and"
                    + " search-index documents. Content-identical omissions of other conversations stay. Runs in"
                    + " transactions of 100 conversations: a failure part-way keeps the batches deleted, and calling"
                    + " again deletes the rest. Every user's conversations need memory-admin; one user's need"
                    + " memory-writer.")
    @APIResponse(
            responseCode = "200",
            description = "{\"deleted\": n}",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "deleted",
                                                            type = SchemaType.INTEGER,
                                                            description =
                                                                    "Conversations deleted; 0 when there were none."))))
    @APIResponse(
            responseCode = "400",
            description = "chatbotId is missing, or an id breaks the id rules; nothing is deleted",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "No userId and not memory-admin, or an id other than the token is narrowed to",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response deleteConversations(
            @Parameter(description = "The agent whose conversations are deleted (required)") @QueryParam("chatbotId")
                    String chatbotId,
            @Parameter(description = "Only this user's conversations; absent for every user's (memory-admin)")
                    @QueryParam("userId")
                    String userId)
            throws MemoryException {
        String agent = tenants.agentId("chatbotId", chatbotId);
        if (agent == null) {
            throw new InvalidInputException(
                    "chatbotId", "required", "chatbotId is required: the agent whose conversations are deleted.");
        }
        String user = tenants.userId("userId", userId);
        if (user != null) {
            return deleted(memory.deleteUserConversations(tenants.current(), agent, user));
        }
        if (!tenants.caller().hasRole(Roles.ADMIN)) {
            throw new OutOfScopeException(
                    "userId",
                    "Deleting every user's conversations of an agent needs the role " + Roles.ADMIN
                            + "; name one user with userId to delete that user's.");
        }
        return deleted(memory.deleteChatbotConversations(tenants.current(), agent));
    }

    private static Response deleted(long count) {
        return Response.ok(Map.of("deleted", count)).build();
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
