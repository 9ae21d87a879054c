package org.agentmemory.working.boundary;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.api.working.ClearedSession;
import org.agentmemory.api.working.ContextFrame;
import org.agentmemory.api.working.ContextPop;
import org.agentmemory.api.working.ContextStack;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.api.working.NewWorkingItem;
import org.agentmemory.api.working.StoredWorkingItem;
import org.agentmemory.api.working.WorkingItem;
import org.agentmemory.api.working.WorkingItemChange;
import org.agentmemory.api.working.WorkingItemFilter;
import org.agentmemory.api.working.WorkingMemory;
import org.agentmemory.api.working.WorkingMemoryRemote;
import org.agentmemory.api.working.WorkingSearchHit;
import org.agentmemory.api.working.WorkingSessionRef;
import org.agentmemory.api.working.WorkingSummary;
import org.agentmemory.platform.load.ForegroundRequests;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;
import org.agentmemory.working.control.MetadataFilter;
import org.agentmemory.working.control.TierPolicy;

/**
 * Working memory ({@link WorkingMemory}; issue 35 item 1, seed 003): checks every input against the bounds of
 * {@link org.agentmemory.api.working.WorkingMemoryOperations}, then runs {@link WorkingStore} or {@link WorkingSearch}
 * in one transaction per call. Writes of one session run one after the other under its header row's lock (decision
 * 0015).
 */
@DeclareRoles({RequiresRole.READER, RequiresRole.WRITER, RequiresRole.ADMIN, RequiresRole.OPERATOR})
@PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@Interceptors({CallerScope.class, ForegroundRequests.class})
public class WorkingMemoryBean implements WorkingMemory, WorkingMemoryRemote {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    WorkingSessionOpenerBean opener;

    @Inject
    WorkingMemoryConfig config;

    private WorkingStore store() {
        return new WorkingStore(em, config.policy(), opener::open);
    }

    private static WorkingSessionRef check(WorkingSessionRef session) throws InvalidInputException {
        if (session == null) {
            throw new InvalidInputException("session", "required", "The session (agentId and sessionId) is required.");
        }
        InputRules.checkTenant(session.tenantId());
        InputRules.checkId("agentId", session.agentId());
        InputRules.checkId("sessionId", session.sessionId());
        return session;
    }

    private static void checkContent(String content) throws InvalidInputException {
        InputRules.checkText("content", content, InputRules.Controls.NO_NUL, WorkingMemory.MAX_CONTENT);
        if (content.isBlank()) {
            throw new InvalidInputException("content", "not-blank", "content must contain a non-whitespace character.");
        }
    }

    private static void checkImportance(String field, Double importance) throws InvalidInputException {
        if (importance != null && !(importance >= 0 && importance <= 1)) {
            throw new InvalidInputException(
                    field, "range", field + " is " + importance + "; it must be between 0 and 1.");
        }
    }

    private static int checkLimit(int limit) throws InvalidInputException {
        if (limit < 1 || limit > WorkingMemory.MAX_LIMIT) {
            throw new InvalidInputException(
                    "limit",
                    "range",
                    "limit is " + limit + "; it must be between 1 and " + WorkingMemory.MAX_LIMIT + ".");
        }
        return limit;
    }

    private static Map<String, Object> metadata(String field, Map<String, Object> metadata, int max)
            throws InvalidInputException {
        InputRules.checkJsonObject(field, metadata, max);
        return metadata == null ? new LinkedHashMap<>() : metadata;
    }

    @Override
    public StoredWorkingItem store(WorkingSessionRef session, NewWorkingItem item) throws InvalidInputException {
        check(session);
        if (item == null || item.content() == null) {
            throw new InvalidInputException("content", "required", "content is required: the text to remember.");
        }
        checkContent(item.content());
        Map<String, Object> metadata = metadata("metadata", item.metadata(), WorkingMemory.MAX_METADATA);
        checkImportance("importance", item.importance());
        double importance = item.importance() == null ? TierPolicy.DEFAULT_IMPORTANCE : item.importance();
        return store().store(session, item.content(), metadata, importance, Boolean.TRUE.equals(item.longTerm()));
    }

    @Override
    public WorkingItem get(WorkingSessionRef session, long itemId) throws NotFoundException, InvalidInputException {
        return store().get(check(session), itemId);
    }

    @Override
    @jakarta.interceptor.Interceptors(org.agentmemory.platform.search.SearchEngineGuard.class)
    public List<WorkingSearchHit> search(WorkingSessionRef session, String query, MemoryTier tier, int limit)
            throws InvalidInputException {
        check(session);
        if (query == null) {
            throw new InvalidInputException("q", "required", "q is required: the words to look for.");
        }
        InputRules.checkText("q", query, InputRules.Controls.ANY, WorkingMemory.MAX_QUERY);
        checkLimit(limit);
        String text = QueryTerms.bound(query).text();
        if (text.isBlank()) {
            return List.of();
        }
        List<ContextFrame> stack = store().stack(session);
        ContextFrame current = stack.isEmpty() ? null : stack.get(stack.size() - 1);
        return new WorkingSearch(em).search(session, text, tier, limit, current);
    }

    @Override
    public List<WorkingItem> retrieve(WorkingSessionRef session, WorkingItemFilter filter)
            throws InvalidInputException {
        check(session);
        WorkingItemFilter f = filter == null ? new WorkingItemFilter(null, null, null, null) : filter;
        Map<String, Object> metadata = f.metadata() == null ? Map.of() : f.metadata();
        if (metadata.size() > WorkingMemory.MAX_FILTER_KEYS) {
            throw new InvalidInputException(
                    "metadata",
                    "max-items",
                    "metadata names " + metadata.size() + " keys; a filter names at most "
                            + WorkingMemory.MAX_FILTER_KEYS + ".");
        }
        InputRules.checkJsonObject("metadata", metadata, WorkingMemory.MAX_METADATA);
        for (Map.Entry<String, Object> criterion : metadata.entrySet()) {
            if (!MetadataFilter.isScalar(criterion.getValue())) {
                throw new InvalidInputException(
                        "metadata." + criterion.getKey(),
                        "scalar",
                        "metadata." + criterion.getKey() + " must be a string, a number or a boolean: the value the"
                                + " item's metadata must hold.");
            }
        }
        checkImportance("minImportance", f.minImportance());
        int limit = checkLimit(f.limit() == null ? WorkingMemory.DEFAULT_LIMIT : f.limit());
        return store().retrieve(session, metadata, f.tier(), f.minImportance(), limit);
    }

    @Override
    public WorkingItem update(WorkingSessionRef session, long itemId, WorkingItemChange change)
            throws NotFoundException, InvalidInputException {
        check(session);
        if (change == null) {
            throw new InvalidInputException(
                    "body", "required", "The change is required (content, metadata or" + " importance).");
        }
        if (change.content() != null) {
            checkContent(change.content());
        }
        InputRules.checkJsonObject("metadata", change.metadata(), WorkingMemory.MAX_METADATA);
        checkImportance("importance", change.importance());
        return store().update(session, itemId, change);
    }

    @Override
    public void delete(WorkingSessionRef session, long itemId) throws NotFoundException, InvalidInputException {
        store().delete(check(session), itemId);
    }

    @Override
    public ClearedSession clear(WorkingSessionRef session) throws InvalidInputException {
        return store().clear(check(session));
    }

    @Override
    public ContextStack pushContext(WorkingSessionRef session, String type, Map<String, Object> data)
            throws InvalidInputException {
        check(session);
        InputRules.checkId("type", type);
        return store().push(session, type, metadata("data", data, WorkingMemory.MAX_FRAME_DATA));
    }

    @Override
    public ContextPop popContext(WorkingSessionRef session) throws InvalidInputException {
        return store().pop(check(session));
    }

    @Override
    public ContextStack contextStack(WorkingSessionRef session) throws InvalidInputException {
        return new ContextStack(store().stack(check(session)));
    }

    @Override
    public WorkingSummary summary(WorkingSessionRef session) throws InvalidInputException {
        return store().summary(check(session));
    }
}
