package org.agentmemory.probe;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.TurnRecord;

/**
 * Lives in a second EAR and calls the memory service through its java:global names, the way an agent
 * backend deployed on the same server would. {@code GET /memory-probe/probe?user=U} appends one turn through
 * the local view and one through the remote view, reads the history back through each, and answers
 * {@code local=<turns> remote=<turns> sequences=<s1>,<s2>}.
 *
 * <p>{@code GET /memory-probe/probe?user=U&tx=commit|rollback} instead appends one turn through the local view
 * inside a JTA transaction of this servlet, ends it that way, and answers {@code turns=<n>} read afterwards: the
 * memory's write must join the caller's transaction (rollback leaves 0 turns, commit 1).
 */
@WebServlet("/probe")
public class ProbeServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    static final String LOCAL =
            "java:global/agent-memory/memory-ejb/ConversationMemoryBean!" + ConversationMemory.class.getName();
    static final String REMOTE =
            "java:global/agent-memory/memory-ejb/ConversationMemoryBean!" + ConversationMemoryRemote.class.getName();

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String user = request.getParameter("user");
        ConversationKey key = ConversationKey.of("probe", user, "jndi");
        response.setContentType("text/plain;charset=UTF-8");
        try {
            InitialContext context = new InitialContext();
            String tx = request.getParameter("tx");
            if (tx != null) {
                response.getWriter()
                        .print("turns="
                                + inTransaction(
                                        (ConversationMemory) context.lookup(LOCAL),
                                        (jakarta.transaction.UserTransaction)
                                                context.lookup("java:comp/UserTransaction"),
                                        key,
                                        "commit".equals(tx)));
                return;
            }
            ConversationMemoryOperations local = (ConversationMemory) context.lookup(LOCAL);
            ConversationMemoryOperations remote = (ConversationMemoryRemote) context.lookup(REMOTE);
            long first = local.addTurn(key, TurnRecord.of("local-" + UUID.randomUUID(), "via local view", "ok"))
                    .turn()
                    .sequence();
            long second = remote.addTurn(key, TurnRecord.of("remote-" + UUID.randomUUID(), "via remote view", "ok"))
                    .turn()
                    .sequence();
            ConversationHistory viaLocal = local.getHistory(key);
            ConversationHistory viaRemote = remote.getHistory(key);
            response.getWriter()
                    .print("local=" + viaLocal.turns().size() + " remote="
                            + viaRemote.turns().size() + " sequences=" + first + "," + second);
        } catch (NamingException | MemoryException | RuntimeException e) {
            response.setStatus(500);
            response.getWriter().print("probe failed: " + e);
        }
    }

    /** Appends a turn inside a transaction of this servlet, commits or rolls it back, counts the stored turns. */
    private static int inTransaction(
            ConversationMemory local,
            jakarta.transaction.UserTransaction transaction,
            ConversationKey key,
            boolean commit)
            throws MemoryException {
        try {
            transaction.begin();
            local.addTurn(key, TurnRecord.of("tx-" + UUID.randomUUID(), "inside the caller's transaction", "ok"));
            if (commit) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
        } catch (jakarta.transaction.NotSupportedException
                | jakarta.transaction.SystemException
                | jakarta.transaction.RollbackException
                | jakarta.transaction.HeuristicMixedException
                | jakarta.transaction.HeuristicRollbackException e) {
            throw new IllegalStateException(e);
        }
        try {
            return local.getHistory(key).turns().size();
        } catch (org.agentmemory.api.NotFoundException none) {
            return 0;
        }
    }
}
