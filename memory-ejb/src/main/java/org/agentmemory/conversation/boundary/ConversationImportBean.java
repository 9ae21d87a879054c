package org.agentmemory.conversation.boundary;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ImportLine;
import org.agentmemory.api.conversation.ImportReport;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.ConversationWriter;
import org.agentmemory.conversation.control.ConversationWriter.LockedAppend;
import org.agentmemory.conversation.control.ConversationWriter.Precomputed;
import org.agentmemory.conversation.control.LockedConversations;
import org.agentmemory.conversation.control.TurnRows;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.search.DeferredIndexing;
import org.agentmemory.platform.validation.InputRules;

/**
 * Imports turns in bulk (JSONL import, spec §11): checks every line, embeds its messages before any transaction,
 * creates the missing conversations in the order they first appear, then writes the batch in one transaction, or
 * line by line when the database rejects it. Search index writes may be deferred to the end of the import
 * ({@link DeferredIndexing}).
 */
@Stateless
@LocalBean
public class ConversationImportBean {

    private static final Logger LOG = Logger.getLogger(ConversationImportBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    SessionContext context;

    @Inject
    Settings settings;

    @Inject
    DeferredIndexing deferredIndexing;

    @Inject
    WriteCoordination coordination;

    @Inject
    ConversationWriters writers;

    /** Removes conversations an import created for lines that then all failed. */
    @EJB
    ConversationCreatorBean creator;

    private ConversationWriter writer() {
        return writers.writer();
    }

    /**
     * See {@link ConversationMemoryOperations#awaitDeferredIndexing}.
     *
     * @return how many deferred index writes failed or did not complete in time
     */
    public int awaitDeferredIndexing() {
        return deferredIndexing.awaitAll(em, ConversationMemoryOperations.DEFERRED_INDEXING_WAIT_MS);
    }

    /**
     * Imports in three steps, each in its own transaction or none: every line is checked and its messages
     * embedded (no transaction, no connection held); missing conversations are created one short transaction
     * each, in the order they first appear; then all turns are written in one transaction
     * ({@link #writeImportBatch}). When that write fails in the database, each line is written on its own so
     * that the good ones are kept and the bad one is reported, and a conversation this call created for lines
     * that all failed is removed again: {@code conversationsCreated} counts the conversations this call created
     * that remain.
     *
     * @param tenantId      the tenant
     * @param lines         the lines
     * @param deferIndexing whether the search index writes are left to complete after each commit
     * @return the report
     * @throws InvalidInputException when the tenant or the batch size breaks a rule (a bad line is reported)
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ImportReport importTurns(String tenantId, List<ImportLine> lines, boolean deferIndexing)
            throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        TurnWriterBean.checkBatchSize("lines", lines);
        List<ImportReport.LineError> errors = new ArrayList<>();
        Map<ConversationKey, List<ImportLine>> byKey = new LinkedHashMap<>();
        for (ImportLine line : lines) {
            try {
                if (line == null || line.key() == null) {
                    throw new InvalidInputException("key", "required", "Each line needs a key (userId and sessionId).");
                }
                ConversationKey key = new ConversationKey(
                        tenantId,
                        line.key().chatbotId(),
                        line.key().userId(),
                        line.key().sessionId());
                try {
                    InputRules.checkKey(key);
                } catch (InvalidInputException badKey) {
                    // Named by its path in the JSONL line, as the turn's fields are ("turn.…").
                    throw new InvalidInputException("key." + badKey.field(), badKey.rule(), badKey.getMessage());
                }
                InputRules.checkTurn("turn.", line.turn(), settings.normalizationEnabled());
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(line);
            } catch (InvalidInputException e) {
                errors.add(new ImportReport.LineError(line == null ? 0 : line.lineNumber(), e.field(), e.getMessage()));
            }
        }
        ConversationWriter writer = writer();
        List<TurnRecord> toEmbed = new ArrayList<>();
        byKey.values().forEach(ls -> ls.forEach(l -> toEmbed.add(l.turn())));
        // Embedding is the slow part of indexing messages: done before any transaction starts.
        Map<String, float[]> vectors = writer.embedInline(toEmbed);
        // Create missing conversations first, in the order they first appear, so that conversation ids (and
        // therefore listings and exports) follow the source: all in one short transaction of their own (nothing
        // else is locked in it). When that fails (a concurrent import or writer created one of them, or inserted
        // the same keys in another order and the database broke the deadlock) they are created one by one, one
        // short transaction each, which never waits on another call's uncommitted insert for long.
        Map<ConversationKey, Long> existing = new ConversationStore(em).findIdsByKeys(tenantId, byKey.keySet());
        // Hints for the write step's lock (checked there), which then looks up only the keys created here.
        existing.forEach(coordination.conversationIds()::put);
        Set<ConversationKey> created = writer.createMissing(
                byKey.keySet().stream().filter(k -> !existing.containsKey(k)).toList());
        long[] counts;
        try {
            counts = write(tenantId, byKey, vectors, deferIndexing, created, errors);
        } catch (RuntimeException | Error unexpected) {
            // Not a rejected line (those are handled): leave no empty conversation this call created behind.
            for (ConversationKey key : created) {
                try {
                    creator.removeIfEmpty(key);
                } catch (RuntimeException cleanupFailed) {
                    unexpected.addSuppressed(cleanupFailed);
                }
            }
            throw unexpected;
        }
        errors.sort(Comparator.comparingLong(ImportReport.LineError::line));
        return new ImportReport(lines.size(), counts[0], counts[1], created.size(), errors);
    }

    /** Writes the batch in one transaction, or line by line when the database rejects it (see importTurns). */
    private long[] write(
            String tenantId,
            Map<ConversationKey, List<ImportLine>> byKey,
            Map<String, float[]> vectors,
            boolean deferIndexing,
            Set<ConversationKey> created,
            List<ImportReport.LineError> errors) {
        ConversationImportBean self = context.getBusinessObject(ConversationImportBean.class);
        long[] counts;
        try {
            counts = self.writeImportBatch(tenantId, byKey, vectors, deferIndexing);
        } catch (EJBException batchFailed) {
            LOG.log(
                    Level.WARNING,
                    "An import batch of "
                            + byKey.values().stream().mapToInt(List::size).sum()
                            + " lines failed; storing it line by line",
                    batchFailed);
            counts = new long[2];
            ConversationWriter.Creation creation = writers.creation();
            for (Map.Entry<ConversationKey, List<ImportLine>> entry : byKey.entrySet()) {
                boolean anyStored = false;
                for (ImportLine line : entry.getValue()) {
                    try {
                        if (new ConversationStore(em).findByKey(entry.getKey(), false) == null) {
                            creation.createIfAbsent(entry.getKey(), null);
                        }
                        long[] one = self.writeImportBatch(
                                tenantId, Map.of(entry.getKey(), List.of(line)), vectors, deferIndexing);
                        counts[0] += one[0];
                        counts[1] += one[1];
                        anyStored = true;
                    } catch (EJBException lineFailed) {
                        String id = UUID.randomUUID().toString();
                        LOG.log(
                                Level.WARNING,
                                "Import line " + line.lineNumber() + " could not be stored (error id " + id + ")",
                                lineFailed);
                        errors.add(new ImportReport.LineError(
                                line.lineNumber(),
                                null,
                                "could not be stored: the" + " database rejected it; error id " + id
                                        + " in the server log says why"));
                    }
                }
                if (!anyStored && created.contains(entry.getKey()) && creator.removeIfEmpty(entry.getKey())) {
                    created.remove(entry.getKey());
                }
            }
        }
        return counts;
    }

    /**
     * The write step of {@link #importTurns}, in a transaction of its own; not part of the memory views (public only
     * so that the container can apply the transaction).
     *
     * @param tenantId      the tenant
     * @param byKey         checked lines by conversation, each list in line order; every conversation exists (one
     *                      deleted since is created again)
     * @param vectors       message vectors computed beforehand, by search text (may be empty)
     * @param deferIndexing whether the search index writes are left to complete after the commit
     * @return {@code [turns written, duplicates]}
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long[] writeImportBatch(
            String tenantId,
            Map<ConversationKey, List<ImportLine>> byKey,
            Map<String, float[]> vectors,
            boolean deferIndexing) {
        Map<ConversationKey, List<TurnRecord>> turnsByKey = new LinkedHashMap<>();
        byKey.forEach((key, lines) ->
                turnsByKey.put(key, lines.stream().map(ImportLine::turn).toList()));
        ConversationWriter writer = writer();
        LockedConversations lockedRows = new LockedConversations();
        Map<Long, Set<String>> stored = new HashMap<>();
        Map<ConversationKey, Conversation> locked = writer.lockByKeys(turnsByKey, lockedRows, stored);
        if (deferIndexing) {
            deferredIndexing.defer(em);
        }
        long imported = 0;
        long duplicates = 0;
        TurnRows rows = new TurnRows();
        for (LockedAppend written : writer.appendToLocked(
                        locked, turnsByKey, stored, Precomputed.vectorsOnly(vectors), rows)
                .values()) {
            for (AppendedTurn appended : written.turns()) {
                if (appended.created()) {
                    imported++;
                } else {
                    duplicates++;
                }
            }
        }
        // Written and flushed here so that a database error surfaces inside this method, not at the commit.
        writer.insert(rows, lockedRows);
        em.flush();
        return new long[] {imported, duplicates};
    }
}
