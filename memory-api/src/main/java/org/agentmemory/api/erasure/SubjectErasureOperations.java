package org.agentmemory.api.erasure;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;

/**
 * Right to erasure (issue 34 item 4): one operation that erases a subject (a user in a tenant) from every store of the
 * service and answers a receipt with a count per store.
 */
public interface SubjectErasureOperations {

    /**
     * Erases a subject everywhere in its tenant: conversations of every chatbot with their turns, tool invocations,
     * omissions and searchable messages (rows, vectors and search-index documents), episodes whose namespace names the
     * user, answers stored under the turn ids of those conversations, PII detection threads, the subject's evidence in
     * brain pages (a statement whose only evidence was the subject's is removed, a page left without statements is
     * deleted) and the subject's id in audit events. Other users' data, including content-identical tool outputs and
     * the same words, is not touched. Works store by store in bounded transactions; a second call answers zeros.
     * Writes one audit event that holds the receipt id and the counts, not the subject.
     *
     * @param tenantId the caller's tenant
     * @param userId   the subject; required, 1–128 code points
     * @return the receipt
     * @throws InvalidInputException when the user id is missing, blank or breaks the id rules (nothing is deleted)
     */
    @RequiresRole(RequiresRole.ADMIN)
    ErasureReceipt eraseSubject(String tenantId, String userId) throws InvalidInputException;
}
