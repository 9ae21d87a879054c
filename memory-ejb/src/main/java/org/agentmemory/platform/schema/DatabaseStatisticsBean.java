package org.agentmemory.platform.schema;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.agentmemory.api.config.HousekeepingSettings;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.platform.cluster.ClusterLeases;
import org.agentmemory.platform.cluster.HousekeepingPeriods;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.persistence.MemoryDataSource;

/**
 * Keeps PostgreSQL's planner statistics of the conversation tables current while this server writes turns
 * ({@value MemorySettings#DB_ANALYZE_GROWTH}, {@link StatisticsRefreshPolicy}): writers report the turns they
 * stored, and when the tables have grown enough since the last refresh, {@code ANALYZE} runs in the background, on
 * a connection of its own outside any transaction (it takes no lock that blocks reads or writes). An {@code
 * ANALYZE} also makes every session plan its prepared statements on these tables again. One refresh runs at a time
 * per server; turns written meanwhile count towards the next. Of several servers sharing the database, one refreshes
 * at a time, and a server does not repeat a refresh another one started less than half of
 * {@value HousekeepingSettings#DB_STATISTICS_SECONDS} ago ({@link #refresh}).
 *
 * <p>Why: PostgreSQL refreshes statistics through autovacuum, which may be off, and otherwise checks at most once
 * a minute; meanwhile a bulk import into tables that were nearly empty ran on plans made for them (the turn-id
 * lookup read the whole turn table for each batch; docs/decisions/0008-planner-statistics.md). Nothing is done on
 * other databases (H2 refreshes its own statistics as rows change).
 *
 * <p>Where autovacuum is off (read once, when the application starts), a refresh is {@code VACUUM (ANALYZE, TRUNCATE
 * false)} (without truncation it takes no lock that blocks reads or writes either): nothing else
 * would remove the dead versions of the conversation rows that every write updates (the row locks and key lookups of
 * every batch walk them) or mark the insert-only
 * tables' pages all-visible for the turn-id lookup's index-only scans. Where it is on, vacuuming is left to it.
 */
@Singleton
@Startup
@DependsOn("SchemaMigrationBean") // the tables exist (Flyway) before their size is read
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class DatabaseStatisticsBean {

    private static final Logger LOG = Logger.getLogger(DatabaseStatisticsBean.class.getName());

    /** The tables maintained: everything a turn write adds rows to or updates. */
    static final String TABLES = "conversation, turn, tool_invocation, turn_message";

    /**
     * The statistics target of a refresh's {@code ANALYZE} (PostgreSQL's {@code default_statistics_target}, set for the
     * refresh's own session only): it samples 300 × this many rows of each table, 3,000 instead of the default
     * 30,000. The planner needs the tables' sizes and the spread of their key columns, which a small sample gives, and
     * a larger sample takes its time from the writes the refresh runs beside. Columns given a target of their own keep
     * it.
     */
    static final int STATISTICS_TARGET = 10;

    /** What a refresh runs: {@code ANALYZE}, or {@code VACUUM (ANALYZE, TRUNCATE false)} where autovacuum is off. */
    private volatile String command = "ANALYZE " + TABLES;

    /** The memory database ({@link MemoryDataSource}: WildFly's or Liberty's name). */
    DataSource dataSource;

    @Resource
    SessionContext context;

    /** Defers a refresh asked for inside a transaction until that transaction has committed. */
    @Resource
    TransactionSynchronizationRegistry transactions;

    @Inject
    Settings settings;

    @jakarta.ejb.EJB
    ClusterLeases leases;

    @Inject
    HousekeepingPeriods periods;

    /** Never refreshes until {@link #init} has looked at the database (so an instance made with {@code new} never does). */
    private volatile StatisticsRefreshPolicy policy =
            new StatisticsRefreshPolicy(0, MemorySettings.Defaults.DB_ANALYZE_MIN_TURNS);

    @PostConstruct
    void init() {
        dataSource = MemoryDataSource.lookup();
        double growth = settings.dbAnalyzeGrowth();
        if (growth == 0) {
            return;
        }
        try (Connection con = dataSource.getConnection();
                Statement st = con.createStatement()) {
            if (!con.getMetaData()
                    .getDatabaseProductName()
                    .toLowerCase(Locale.ROOT)
                    .contains("postgres")) {
                return;
            }
            if (autovacuumOff(st)) {
                // TRUNCATE false: truncating empty pages at the end would lock the tables against reads and writes.
                command = "VACUUM (ANALYZE, TRUNCATE false) " + TABLES;
                LOG.info("PostgreSQL's autovacuum is off: this server vacuums and analyzes the conversation tables"
                        + " itself as its writes grow them (" + MemorySettings.DB_ANALYZE_GROWTH + ")");
            }
            StatisticsRefreshPolicy postgres =
                    new StatisticsRefreshPolicy(growth, MemorySettings.Defaults.DB_ANALYZE_MIN_TURNS);
            // The size the statistics were last taken at, so that a restart does not refresh after 1,000 turns.
            postgres.refreshed(turnEstimate(st));
            policy = postgres;
        } catch (SQLException | RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Could not tell the database product or read its statistics; they are left to the"
                            + " database (autovacuum) until this application restarts",
                    e);
        }
    }

    /**
     * Counts turns this server stored and starts a refresh in the background when they are enough: once the
     * caller's transaction has committed (none starts for writes that roll back), or at once outside a transaction.
     * Cheap: called after every write, in the writer's thread, inside its transaction; never throws (a refresh that
     * cannot start counts as failed).
     *
     * @param turns turns just written, ≥ 0
     */
    public void turnsWritten(long turns) {
        if (!policy.written(turns)) {
            return; // always so for an instance made with new (no container, no transactions)
        }
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            startRefresh();
            return;
        }
        // Not before the writes commit: an ANALYZE started now would not see them. An import of 1,000 turns in one
        // batch into empty tables left them analyzed as empty, and a 1,000-turn history then took 250 ms to read
        // (its tool invocations joined by a nested loop planned for one row).
        try {
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    // nothing before the commit
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        startRefresh();
                    } else {
                        policy.cancelled();
                    }
                }
            });
        } catch (RuntimeException e) { // e.g. the transaction is being rolled back already
            notStarted(e);
        }
    }

    private void startRefresh() {
        try {
            context.getBusinessObject(DatabaseStatisticsBean.class).refresh();
        } catch (RuntimeException e) { // e.g. the application is stopping
            notStarted(e);
        }
    }

    private void notStarted(RuntimeException e) {
        policy.failed();
        LOG.log(Level.WARNING, "Could not start refreshing the statistics of the conversation tables", e);
    }

    private static long turnEstimate(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT reltuples FROM pg_class WHERE oid = 'turn'::regclass")) {
            return rs.next() ? Math.max(0, rs.getLong(1)) : 0;
        }
    }

    private static boolean autovacuumOff(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT current_setting('autovacuum')")) {
            return rs.next() && "off".equalsIgnoreCase(rs.getString(1));
        }
    }

    /**
     * Runs {@code ANALYZE} of the conversation tables, or {@code VACUUM (ANALYZE, TRUNCATE false)} where autovacuum is off
     * (asynchronously, outside any transaction: {@code VACUUM} cannot run in one); a failure is logged and backs off.
     * Under the cluster lease {@value HousekeepingSettings#DB_STATISTICS} ({@link ClusterLeases}): when another server
     * started a refresh less than half of {@value HousekeepingSettings#DB_STATISTICS_SECONDS} ago, or runs one now,
     * this server takes that refresh as its own (it reads the table size the statistics now hold) instead of
     * repeating it.
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void refresh() {
        long start = System.nanoTime();
        try {
            Optional<Long> turns = leases.runOnce(
                    HousekeepingSettings.DB_STATISTICS, periods.period(HousekeepingSettings.DB_STATISTICS), () -> {
                        try {
                            return analyze();
                        } catch (SQLException e) {
                            throw new IllegalStateException(e.getMessage(), e);
                        }
                    });
            long seen = turns.isPresent() ? turns.get() : turnEstimate();
            policy.refreshed(seen);
            LOG.fine(() -> String.format(
                    Locale.ROOT,
                    "%s the statistics of the conversation tables (%d turns) in %d ms",
                    turns.isPresent() ? "Refreshed" : "Another server refreshed",
                    seen,
                    (System.nanoTime() - start) / 1_000_000));
        } catch (SQLException | RuntimeException e) {
            policy.failed();
            LOG.log(
                    Level.WARNING,
                    "Refreshing the statistics of the conversation tables failed; the next try waits" + " for "
                            + policy.threshold() + " more turns",
                    e);
            return;
        }
        // Turns written meanwhile may already call for the next refresh (no later write might come to ask).
        turnsWritten(0);
    }

    /** @return the turn table's estimated rows, from the statistics */
    private long turnEstimate() throws SQLException {
        try (Connection con = dataSource.getConnection();
                Statement st = con.createStatement()) {
            return turnEstimate(st);
        }
    }

    /**
     * The refresh's statements, on a connection of its own.
     *
     * @return the turn table's estimated rows afterwards
     */
    private long analyze() throws SQLException {
        try (Connection con = dataSource.getConnection();
                Statement st = con.createStatement()) {
            // A session setting on a pooled connection: reset below, whatever the command did.
            st.execute("SET default_statistics_target = " + STATISTICS_TARGET);
            try {
                st.execute(command);
                // PostgreSQL skips tables the user does not own with a warning, not an error (read before the next
                // statement clears them).
                for (java.sql.SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
                    String warning = w.getMessage();
                    LOG.warning(() -> "Refreshing the statistics of the conversation tables: " + warning);
                }
            } finally {
                st.execute("RESET default_statistics_target");
            }
            return turnEstimate(st);
        }
    }
}
