package io.servesim.engine;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * The SGLang core's prefix cache: SGLang's radix tree over KV pages ({@code RadixCache} in sgl-project/sglang
 * {@code python/sglang/srt/mem_cache/radix_cache.py} at 006b0e3d317f1cd4a7300e919a4eaa878b1947e7, as the Dynamo
 * mocker's {@code lib/mocker/src/cache/radix_cache.rs} keys it by page hashes):
 * <ul>
 *   <li>a node holds a run of pages (its key: the chained hash of each page, {@link Request#blockHash}; SGLang's
 *       page-aligned token ids), its children keyed by their first page; {@link #match} walks from the root, refreshes
 *       each node's last access and splits the node a match ends inside ({@code _match_prefix_helper},
 *       {@code _split_node});</li>
 *   <li>{@code lock_ref}: a running request locks the path to its last node ({@code inc_lock_ref} up to the root); a
 *       node's pages are protected while locked, evictable otherwise ({@code evictable_size_}, {@code protected_size_});</li>
 *   <li>{@link #evict}: the least recently used unlocked leaf first, whole, until enough pages are free; a parent left
 *       childless and unlocked becomes a candidate ({@code evict}, the default {@code LRUStrategy});</li>
 *   <li>a request's computed pages are inserted after each prefill ({@code cache_unfinished_req}: its lock moves to
 *       the new last node) and at its end ({@code cache_finished_req}: inserted, then unlocked); pages another request
 *       inserted meanwhile are kept once and the duplicates freed; a retracted request frees its own pages without
 *       inserting ({@code release_kv_cache(is_insert=False)}).</li>
 * </ul>
 * Pages live in the instance's {@link KvCache}, used as a pool of anonymous pages: a request's own pages (past its
 * matched prefix) and locked nodes' pages are taken; an unlocked node's pages are back in the pool, so the pool's free
 * count is SGLang's {@code available_size + evictable_size} (its token usage counts neither), and evicting a node only
 * makes its pages available. Content nobody else can match (a prompt's unique tail, an output no later turn repeats:
 * {@link Request#sharedInputTokens}, {@link Request#outputReusable}) is inserted as a node without a key: it takes
 * pages and is evicted like any leaf, but is never hashed or matched, as no later request's prefix could equal it.
 * Keyed pages are reported to the instance's block listener as they are inserted and evicted (SGLang's
 * {@code BlockStored} / {@code BlockRemoved} KV events), so routers index the tree as they index vLLM's blocks.
 *
 * <p>A request of the SGLang core holds {@code registeredBlocks} pages of the tree (its locked path, {@code
 * radixNode}) and {@code anonymousTail} pages of its own after them; {@code blockTokens} covers both.
 */
final class RadixCache {
    /** A node of the tree: a run of pages. */
    static final class Node {
        final long id;
        Node parent;
        /** The pages' chained hashes, or null for content nobody can match (a leaf, never in a children map). */
        long[] key;
        int pages;
        /** Keyed children by their first page's hash; null until the first. */
        Long2ObjectOpenHashMap<Node> children;
        int keylessChildren;
        int lockRef;
        long lastAccess;
        boolean inLeaves;
        /** Waiting requests whose match ends in this subtree, while {@link #dfsWeightOrder} runs (else 0). */
        int dfsWeight;

        Node(long id, Node parent, long[] key, int pages) {
            this.id = id;
            this.parent = parent;
            this.key = key;
            this.pages = pages;
        }

        boolean isLeaf() {
            return (children == null || children.isEmpty()) && keylessChildren == 0;
        }

        int lockRef() { return lockRef; }
        int pages() { return pages; }
    }

    private static final Comparator<Node> LRU = Comparator.<Node>comparingLong(n -> n.lastAccess).thenComparingLong(n -> n.id);

    private final KvCache pool;
    private final int pageSize;
    /** Whether prefixes are matched at all (SGLang's {@code disable_radix_cache} is the opposite). */
    private final boolean matching;
    private final Node root;
    private final TreeSet<Node> evictableLeaves = new TreeSet<>(LRU);
    private final LongOpenHashSet keyedPages = new LongOpenHashSet();
    /** The nodes without a key (reachable from no children map; for the invariant walk). */
    private final java.util.Set<Node> keylessNodes = new java.util.LinkedHashSet<>();
    private long evictablePages;
    private long protectedPages;
    private long clock;
    private long nextId = 1;
    private Node lastMatch;
    private Request lastMatched;
    private long evictedPages;

    /** A tree over {@code pool}'s pages ({@code pool} then has no prefix index of its own); {@code matching}: prefix caching on. */
    RadixCache(KvCache pool, boolean matching) {
        this.pool = pool;
        this.pageSize = pool.blockSize();
        this.matching = matching;
        this.root = new Node(0, null, new long[0], 0);
        this.root.lockRef = 1; // SGLang's root is always locked
        pool.poolFor(this);
    }

    int pageSize() { return pageSize; }
    /** Whether prefixes are matched (prefix caching on). */
    boolean matching() { return matching; }
    /** Pages of unlocked nodes (SGLang's {@code evictable_size_}, in pages). */
    long evictablePages() { return evictablePages; }
    /** Pages of locked nodes ({@code protected_size_}). */
    long protectedPages() { return protectedPages; }
    /** Free pages no node holds ({@code available_size}): the pool's free pages less the evictable ones. */
    long availablePages() { return pool.freeBlocks() - evictablePages; }
    /** Pages evicted so far. */
    long evictedPages() { return evictedPages; }
    boolean holds(long pageHash) { return keyedPages.contains(pageHash); }
    int pageHashCount() { return keyedPages.size(); }
    void forEachPageHash(LongConsumer visitor) { keyedPages.forEach(visitor); }
    Node root() { return root; }

    int pagesFor(long tokens) {
        return (int) ((tokens + pageSize - 1) / pageSize);
    }

    /** The longest prefix {@code r} may reuse: all its tokens but the last (recomputed for its logits), in whole pages. */
    int maxPrefixPages(Request r) {
        return (r.numTokens() - 1) / pageSize;
    }

    /**
     * Reorders {@code queue} as SGLang's {@code dfs-weight} policy does ({@code _sort_by_dfs_weight}: {@code calc_weight},
     * {@code get_dfs_priority}): each request is matched; a node's weight is the number of requests whose match ends in
     * its subtree; the tree is walked depth-first from the root, heavier children first (ties: the older node), and
     * each node's requests follow its subtree's, in queue order.
     */
    void dfsWeightOrder(java.util.List<Request> queue) {
        java.util.IdentityHashMap<Node, java.util.List<Request>> byNode = new java.util.IdentityHashMap<>();
        java.util.List<Node> weighted = new java.util.ArrayList<>();
        for (Request r : queue) {
            match(r, maxPrefixPages(r));
            byNode.computeIfAbsent(lastMatch, k -> new java.util.ArrayList<>()).add(r);
        }
        // weights after every match: a later match may split a node an earlier one ends below
        for (var e : byNode.entrySet()) {
            for (Node n = e.getKey(); n != null; n = n.parent) {
                if (n.dfsWeight == 0) {
                    weighted.add(n);
                }
                n.dfsWeight += e.getValue().size();
            }
        }
        lastMatched = null;
        queue.clear();
        dfs(root, byNode, queue);
        for (Node n : weighted) {
            n.dfsWeight = 0;
        }
    }

    private static final Comparator<Node> HEAVIER_FIRST = Comparator.<Node>comparingInt(n -> -n.dfsWeight)
            .thenComparingLong(n -> n.id);

    private static void dfs(Node node, java.util.Map<Node, java.util.List<Request>> byNode, java.util.List<Request> out) {
        if (node.children != null) {
            java.util.List<Node> kids = new java.util.ArrayList<>();
            for (Node c : node.children.values()) {
                if (c.dfsWeight > 0) {
                    kids.add(c);
                }
            }
            kids.sort(HEAVIER_FIRST);
            for (Node c : kids) {
                dfs(c, byNode, out);
            }
        }
        java.util.List<Request> own = byNode.get(node);
        if (own != null) {
            out.addAll(own);
        }
    }

    /**
     * The longest cached prefix of {@code r}'s tokens, in pages, at most {@code maxPages}; remembered (its last node) for
     * {@link #lockMatch}. Refreshes the last access of every node on the path and splits the node it ends inside.
     */
    int match(Request r, int maxPages) {
        Node node = root;
        int matched = 0;
        while (matching && matched < maxPages && node.children != null) {
            Node child = node.children.get(r.blockHash(matched, pageSize));
            if (child == null) {
                break;
            }
            touch(child);
            int n = common(child, r, matched, maxPages);
            boolean inside = n < child.pages;
            if (inside) {
                child = split(child, n);
            }
            matched += n;
            node = child;
            if (inside) {
                break;
            }
        }
        lastMatch = node;
        lastMatched = r;
        return matched;
    }

    /** The last node of the last {@link #match} of {@code r}. */
    Node lastMatchNode(Request r) {
        if (lastMatched != r) {
            throw new IllegalStateException("no match of " + r + " to use");
        }
        return lastMatch;
    }

    /** Locks the path of {@code r}'s last {@link #match} ({@code pages} pages) as its prefix; it holds no pages yet. */
    void lockMatch(Request r, int pages) {
        Node node = lastMatchNode(r);
        if (r.radixNode != null || r.heldBlocks() > 0) {
            throw new IllegalStateException("request already holds KV: " + r);
        }
        lock(node);
        r.radixNode = node;
        r.registeredBlocks = pages;
        r.blockTokens = pages * pageSize;
        lastMatched = null;
    }

    /**
     * Gives {@code r} pages of its own until its prefix and own pages cover tokens {@code [0, endToken)}, evicting as
     * SGLang's allocation does ({@code evict_from_tree_cache}: when fewer pages are available than needed, that many are
     * evicted); false (nothing changed) when too few pages can be had.
     */
    boolean allocateOwn(Request r, int endToken) {
        int need = pagesFor(endToken) - r.blockTokens / pageSize;
        if (need <= 0) {
            return true;
        }
        if (availablePages() < need) {
            evict(need);
            if (availablePages() < need) {
                return false;
            }
        }
        pool.takePages(need);
        r.anonymousTail += need;
        r.blockTokens += need * pageSize;
        return true;
    }

    /** SGLang's {@code cache_unfinished_req}: inserts {@code r}'s full pages below {@code computedTokens}; its lock moves to the new last node. */
    void cacheUnfinished(Request r, int computedTokens) {
        if (!matching) {
            return; // without prefix caching SGLang keeps no tree (ChunkCache): nothing is inserted
        }
        Node old = pathOf(r);
        Node last = insert(r, computedTokens / pageSize);
        if (last != old) {
            lock(last);
            unlock(old);
            r.radixNode = last;
        }
    }

    /**
     * SGLang's {@code cache_finished_req}: inserts {@code r}'s full pages of computed tokens, unlocks its path and frees
     * its other pages (a partial last page); it holds nothing after.
     */
    void cacheFinished(Request r) {
        if (!matching) {
            release(r);
            return;
        }
        Node old = pathOf(r);
        insert(r, r.computedTokens / pageSize);
        unlock(old);
        freeOwn(r);
    }

    /** A retracted (or evacuated) request frees its own pages and unlocks its path, inserting nothing. */
    void release(Request r) {
        unlock(pathOf(r));
        freeOwn(r);
    }

    /** Unlocks {@code r}'s matched path after {@link #lockMatch} when it is not admitted after all (it holds no own pages). */
    void abandon(Request r) {
        if (r.anonymousTail > 0) {
            throw new IllegalStateException("abandoning a request that holds pages: " + r);
        }
        release(r);
    }

    private Node pathOf(Request r) {
        return r.radixNode == null ? root : r.radixNode;
    }

    private void freeOwn(Request r) {
        pool.returnPages(r.anonymousTail);
        r.anonymousTail = 0;
        r.registeredBlocks = 0;
        r.blockTokens = 0;
        r.radixNode = null;
    }

    /**
     * Inserts {@code r}'s pages from its path's end ({@code registeredBlocks}) to {@code fullPages} ({@code
     * _insert_helper}): along matching nodes (its own pages there are duplicates and freed), then as a new keyed node
     * and a keyless node for what nobody can match. Returns the last node of its pages; the new nodes are unlocked.
     */
    private Node insert(Request r, int fullPages) {
        Node node = pathOf(r);
        int pos = r.registeredBlocks;
        if (fullPages <= pos) {
            return node;
        }
        int keyed = r.outputReusable() ? fullPages : Math.min(fullPages, Math.max(pos, r.sharedInputTokens() / pageSize));
        while (pos < keyed && node.key != null) {
            Node child = node.children == null ? null : node.children.get(r.blockHash(pos, pageSize));
            if (child == null) {
                long[] key = new long[keyed - pos];
                for (int k = 0; k < key.length; k++) {
                    key[k] = r.blockHash(pos + k, pageSize);
                }
                node = addChild(node, key, key.length, r);
                pos = keyed;
                break;
            }
            touch(child);
            int n = common(child, r, pos, keyed);
            if (n < child.pages) {
                child = split(child, n);
            }
            pool.returnPages(n); // the tree holds these pages already: the request's copies are freed
            r.anonymousTail -= n;
            pos += n;
            node = child;
        }
        if (pos < fullPages) {
            node = addChild(node, null, fullPages - pos, r);
            pos = fullPages;
        }
        r.registeredBlocks = pos;
        return node;
    }

    /** A new unlocked leaf under {@code parent} of {@code pages} of {@code r}'s own pages, which pass to the tree. */
    private Node addChild(Node parent, long[] key, int pages, Request r) {
        Node n = new Node(nextId++, parent, key, pages);
        n.lastAccess = ++clock;
        if (key != null) {
            if (parent.children == null) {
                parent.children = new Long2ObjectOpenHashMap<>(4);
            }
            parent.children.put(key[0], n);
            KvBlockListener listener = pool.listener();
            for (long h : key) {
                keyedPages.add(h);
                if (listener != null) {
                    listener.stored(h);
                }
            }
        } else {
            parent.keylessChildren++;
            keylessNodes.add(n);
        }
        leafOut(parent);
        r.anonymousTail -= pages;
        pool.returnPages(pages); // unlocked: evictable, so free in the pool
        evictablePages += pages;
        leafIn(n);
        return n;
    }

    /** Leading pages of {@code child}'s key equal to {@code r}'s pages from {@code pos}, at most {@code limit - pos}. */
    private int common(Node child, Request r, int pos, int limit) {
        int max = Math.min(child.pages, limit - pos);
        int n = 0;
        while (n < max && child.key[n] == r.blockHash(pos + n, pageSize)) {
            n++;
        }
        return n;
    }

    /** Splits {@code child} after its first {@code n} pages ({@code _split_node}); returns the new upper node. */
    private Node split(Node child, int n) {
        Node parent = child.parent;
        Node upper = new Node(nextId++, parent, java.util.Arrays.copyOf(child.key, n), n);
        upper.lockRef = child.lockRef;
        upper.lastAccess = ++clock;
        upper.children = new Long2ObjectOpenHashMap<>(4);
        child.key = java.util.Arrays.copyOfRange(child.key, n, child.key.length);
        child.pages -= n;
        child.parent = upper;
        upper.children.put(child.key[0], child);
        parent.children.put(upper.key[0], upper);
        return upper;
    }

    /**
     * Evicts unlocked leaves, least recently used first and each whole, until {@code pages} pages are evicted or none
     * is left; returns the pages evicted.
     */
    long evict(long pages) {
        long evicted = 0;
        KvBlockListener listener = pool.listener();
        while (evicted < pages) {
            Node x = evictableLeaves.pollFirst();
            if (x == null) {
                break;
            }
            x.inLeaves = false;
            evicted += x.pages;
            evictablePages -= x.pages;
            Node parent = x.parent;
            if (x.key == null) {
                parent.keylessChildren--;
                keylessNodes.remove(x);
            } else {
                parent.children.remove(x.key[0]);
                for (long h : x.key) {
                    keyedPages.remove(h);
                    if (listener != null) {
                        listener.removed(h);
                    }
                }
            }
            x.parent = null;
            leafIn(parent);
        }
        evictedPages += evicted;
        return evicted;
    }

    private void lock(Node node) {
        for (Node n = node; n != root; n = n.parent) {
            if (n.lockRef == 0) {
                evictablePages -= n.pages;
                protectedPages += n.pages;
                leafOut(n);
                pool.takePages(n.pages);
            }
            n.lockRef++;
        }
    }

    private void unlock(Node node) {
        for (Node n = node; n != root; n = n.parent) {
            if (n.lockRef == 1) {
                protectedPages -= n.pages;
                evictablePages += n.pages;
                pool.returnPages(n.pages);
            }
            n.lockRef--;
            leafIn(n);
        }
    }

    /** Refreshes {@code n}'s last access (re-sorting it among the evictable leaves). */
    private void touch(Node n) {
        boolean listed = n.inLeaves;
        leafOut(n);
        n.lastAccess = ++clock;
        if (listed) {
            leafIn(n);
        }
    }

    private void leafIn(Node n) {
        if (n != root && !n.inLeaves && n.lockRef == 0 && n.isLeaf()) {
            evictableLeaves.add(n);
            n.inLeaves = true;
        }
    }

    private void leafOut(Node n) {
        if (n.inLeaves) {
            evictableLeaves.remove(n);
            n.inLeaves = false;
        }
    }

    /**
     * The tree's invariants (debug mode and tests): a locked node's parent is locked; evictable and protected pages are
     * the unlocked and locked nodes' pages summed; the evictable leaves are exactly the unlocked childless nodes; the
     * keyed pages indexed are exactly the nodes' keys; the pool's free pages include every evictable one. O(nodes).
     */
    void checkInvariants() {
        long[] sums = new long[3]; // evictable, protected, keyed pages
        java.util.ArrayDeque<Node> stack = new java.util.ArrayDeque<>(keylessNodes);
        stack.push(root);
        int leaves = 0;
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            if (n != root) {
                if (n.lockRef < 0 || (n.lockRef > 0 && n.parent.lockRef == 0) || n.pages <= 0) {
                    throw new IllegalStateException("radix node " + n.id + ": lock_ref " + n.lockRef + ", parent's "
                            + n.parent.lockRef + ", " + n.pages + " pages");
                }
                sums[n.lockRef == 0 ? 0 : 1] += n.pages;
                boolean shouldList = n.lockRef == 0 && n.isLeaf();
                if (shouldList != n.inLeaves || n.inLeaves != evictableLeaves.contains(n)) {
                    throw new IllegalStateException("radix node " + n.id + " listed " + n.inLeaves + ", evictable leaf " + shouldList);
                }
                leaves += n.inLeaves ? 1 : 0;
                if (n.key != null) {
                    sums[2] += n.key.length;
                    if (n.key.length != n.pages) {
                        throw new IllegalStateException("radix node " + n.id + " has " + n.key.length + " keys for " + n.pages + " pages");
                    }
                }
            }
            if (n.children != null) {
                for (Node c : n.children.values()) {
                    if (c.parent != n) {
                        throw new IllegalStateException("radix node " + c.id + " under the wrong parent");
                    }
                    stack.push(c);
                }
            }
        }
        if (sums[0] != evictablePages || sums[1] != protectedPages || leaves != evictableLeaves.size()
                || sums[2] != keyedPages.size() || pool.freeBlocks() < evictablePages) {
            throw new IllegalStateException("radix tree: evictable " + sums[0] + " vs " + evictablePages + ", protected "
                    + sums[1] + " vs " + protectedPages + ", leaves " + leaves + " vs " + evictableLeaves.size() + ", keyed "
                    + sums[2] + " vs " + keyedPages.size() + ", pool free " + pool.freeBlocks());
        }
    }
}
