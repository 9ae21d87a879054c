package org.agentmemory.conversation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.annotation.Resource;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ImportLine;
import org.agentmemory.api.conversation.ImportReport;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.RestJson;
import org.agentmemory.rest.RestSettings;
import org.agentmemory.security.Audited;
import org.agentmemory.security.OutOfScopeException;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Bulk import and export of turns as JSONL ({@link JsonlLine}, one turn per line with its conversation key).
 *
 * <p>Import streams the body, commits every {@code memory.import.batch-lines} lines (or {@value #BATCH_CHARS} characters of
 * JSONL, whichever comes first) in one transaction,
 * and answers with counts and one error per bad line; a bad line never aborts the good ones (a batch that
 * fails in the database is stored line by line by the bean to find the culprit). Lines are split by user (and agent) into
 * {@code memory.import.parallelism} lanes whose batches are stored at once ({@link ImportLanes}): a user's
 * conversations are created in the order they first appear and each keeps its line order. Each batch's search
 * index writes run in the background while the next batch is stored, and the answer waits for all of them: when
 * it arrives, the imported messages are searchable. Fault tolerance: no time limit (imports are long),
 * 4 concurrent imports, 503 + {@code Retry-After} beyond that.
 */
@Path("")
@ApplicationScoped
@Tag(name = "Import and export", description = "JSONL bulk transfer of turns")
@Bulkhead(4)
@RolesAllowed(Roles.WRITER)
@SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
public class ImportResource {

    private static final Logger LOG = Logger.getLogger(ImportResource.class.getName());

    /**
     * A batch is stored as soon as its lines hold this many characters of JSONL (4 Mi), even with fewer than
     * {@code memory.import.batch-lines} lines: a transaction never carries hundreds of megabytes of text.
     */
    static final long BATCH_CHARS = 4L * 1024 * 1024;

    private static final ObjectReader READER = RestJson.mapper().readerFor(JsonlLine.class);

    @EJB
    ConversationMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RestSettings settings;

    /** Runs the import's lanes ({@code memory.import.parallelism}). */
    @Resource
    ManagedExecutorService executor;

    @Audited("import")
    @POST
    @Path("import")
    @Consumes({JsonlWriter.MEDIA_TYPE, "application/jsonl", "application/x-jsonlines", MediaType.TEXT_PLAIN})
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Import turns from JSONL",
            description = "One JSON object per line: {\"key\":{\"chatbotId\",\"userId\","
                    + "\"sessionId\"},\"turn\":{...}}. Turns of one conversation are appended in line order; existing turn ids are"
                    + " counted as duplicates and left unchanged.")
    @APIResponse(
            responseCode = "200",
            description = "Counts and per-line errors",
            content = @Content(schema = @Schema(implementation = ImportReport.class)))
    public Response importJsonl(InputStream body) throws IOException, MemoryException {
        String tenant = tenants.current();
        JsonlReader reader = new JsonlReader(body, settings.importMaxLineBytes());
        Totals totals = new Totals();
        int parallelism = settings.importParallelism();
        ImportLanes<ImportLine> lanes = new ImportLanes<>(
                parallelism,
                settings.importBatchLines(),
                BATCH_CHARS,
                parallelism == 1 ? Runnable::run : executor,
                batch -> store(tenant, batch, totals));
        JsonlReader.Line line;
        try {
            while ((line = reader.next()) != null) {
                if (line.error() == null && line.text().isBlank()) {
                    continue;
                }
                totals.read++;
                if (line.error() != null) {
                    totals.error(new ImportReport.LineError(line.number(), null, line.error()));
                    continue;
                }
                ImportLine parsed = parse(line, totals);
                if (parsed != null && tenants.scoped()) {
                    parsed = narrowed(parsed, totals);
                }
                if (parsed != null) {
                    // Lanes by user (and agent): a user's conversations are created, and so numbered, in the order
                    // they first appear, so listing or exporting a user's conversations follows the source.
                    ConversationKey key = parsed.key();
                    lanes.add(
                            java.util.Objects.hash(key.chatbotId(), key.userId()),
                            parsed,
                            line.text().length());
                }
            }
            lanes.finish();
        } catch (StoreFailure failure) {
            throw failure.getCause();
        }
        // The batches' index writes ran in the background, overlapping the next batch; the answer waits for them,
        // so the imported messages are searchable when the import returns.
        int indexFailures = memory.awaitDeferredIndexing();
        if (indexFailures > 0) {
            LOG.warning("Import: " + indexFailures + " index writes failed; the turns are stored, and POST"
                    + " /admin/reindex restores their search entries");
        }
        return Response.ok(totals.report()).build();
    }

    @Audited("export")
    @GET
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
    @Path("export")
    @Produces(JsonlWriter.MEDIA_TYPE)
    @Operation(
            summary = "Export all of a user's conversations as JSONL",
            description = "Oldest conversation first, each in sequence order; the import format. Offloaded tool"
                    + " outputs are written in full, so the export is a complete backup that can be imported under"
                    + " any key.")
    @APIResponse(responseCode = "200", description = "application/x-ndjson stream")
    @APIResponse(responseCode = "400", description = "userId is missing, or an id breaks a rule")
    public Response export(@QueryParam("userId") String userId, @QueryParam("chatbotId") String chatbotId)
            throws MemoryException {
        String tenant = tenants.current();
        String user = Params.required("userId", tenants.userId("userId", userId));
        String chatbot = tenants.agentId("chatbotId", chatbotId);
        // Validates the ids before the stream starts, so a bad id is a 400 rather than a broken stream.
        memory.listSessions(tenant, user, chatbot, 1, null);
        StreamingOutput out = stream -> new JsonlWriter(memory, tenant, stream).writeUser(user, chatbot);
        return Response.ok(out, JsonlWriter.MEDIA_TYPE).build();
    }

    /**
     * @return the line with its key narrowed to the token's user and agent, or {@code null} (and a line error) when
     *         it names another user or agent than the token's
     */
    private ImportLine narrowed(ImportLine parsed, Totals errors) {
        ConversationKey key = parsed.key();
        try {
            return new ImportLine(
                    parsed.lineNumber(),
                    tenants.key("key.", key.chatbotId(), key.userId(), key.sessionId()),
                    parsed.turn());
        } catch (OutOfScopeException e) {
            errors.error(new ImportReport.LineError(parsed.lineNumber(), e.field(), e.getMessage()));
            return null;
        } catch (InvalidInputException e) {
            errors.error(new ImportReport.LineError(parsed.lineNumber(), e.field(), e.getMessage()));
            return null;
        }
    }

    private static ImportLine parse(JsonlReader.Line line, Totals errors) {
        try {
            JsonlLine json = READER.readValue(line.text());
            if (json == null || json.key() == null) {
                errors.error(new ImportReport.LineError(
                        line.number(), "key", "key is required: {\"userId\":…,\"sessionId\":…}"));
                return null;
            }
            if (json.turn() == null) {
                errors.error(new ImportReport.LineError(line.number(), "turn", "turn is required"));
                return null;
            }
            return new ImportLine(
                    line.number(),
                    new ConversationKey(
                            ConversationKey.DEFAULT_TENANT,
                            json.key().chatbotId(),
                            json.key().userId(),
                            json.key().sessionId()),
                    json.turn());
        } catch (JsonProcessingException e) {
            // The same words as a REST body's 400 (field path, rule), without Java class names.
            org.agentmemory.rest.JsonErrors.Described d = org.agentmemory.rest.JsonErrors.describe(e, "The line");
            errors.error(new ImportReport.LineError(line.number(), d.field(), d.detail()));
            return null;
        }
    }

    /**
     * Stores one batch (on the request thread or a lane's executor thread). The bean keeps a batch's good lines
     * when some fail in the database; a failure outside its write step (none is expected) is reported on each of
     * the batch's lines, and the import goes on.
     */
    private void store(String tenant, List<ImportLine> batch, Totals totals) {
        try {
            totals.add(memory.importTurns(tenant, List.copyOf(batch), true));
        } catch (InvalidInputException tooMany) {
            throw new StoreFailure(tooMany);
        } catch (EJBException batchFailed) {
            String id = java.util.UUID.randomUUID().toString();
            LOG.log(
                    Level.SEVERE,
                    "An import batch of " + batch.size() + " lines failed (error id " + id + ")",
                    batchFailed);
            for (ImportLine line : batch) {
                totals.error(new ImportReport.LineError(
                        line.lineNumber(),
                        null,
                        "could not be stored: the service failed; error id " + id + " in the server log says why"));
            }
        }
    }

    /** Running totals across batches; lanes add to them from their own threads. */
    private static final class Totals {
        long read;
        private long imported;
        private long duplicates;
        private long created;
        private final List<ImportReport.LineError> errors = new ArrayList<>();

        synchronized void add(ImportReport report) {
            imported += report.turnsImported();
            duplicates += report.duplicates();
            created += report.conversationsCreated();
            errors.addAll(report.errors());
        }

        synchronized void error(ImportReport.LineError error) {
            errors.add(error);
        }

        synchronized ImportReport report() {
            List<ImportReport.LineError> sorted = new ArrayList<>(errors);
            sorted.sort((a, b) -> Long.compare(a.line(), b.line()));
            return new ImportReport(read, imported, duplicates, created, sorted);
        }
    }

    /** A checked failure of a batch, carried out of a lane. */
    private static final class StoreFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoreFailure(InvalidInputException cause) {
            super(cause);
        }

        @Override
        public synchronized InvalidInputException getCause() {
            return (InvalidInputException) super.getCause();
        }
    }
}
