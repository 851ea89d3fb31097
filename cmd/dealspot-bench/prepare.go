package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// preparedJSON describes, next to the token file, what --prepare-only prepared: what an
// external load generator needs besides the tokens.
type preparedJSON struct {
	PreparedAt time.Time `json:"preparedAt"`
	URL        string    `json:"url"`
	Path       string    `json:"path"`
	// VoucherID is the sale to claim, as the GraphQL ID the claim takes.
	VoucherID   string `json:"voucherId"`
	CreatedSale bool   `json:"createdSale"`
	// Stock is the created sale's stock (0 for a sale given with --voucher).
	Stock int64 `json:"stock"`
	// Users is how many tokens TokensFile holds, one per line, each a different user's.
	Users       int    `json:"users"`
	TokensFile  string `json:"tokensFile"`
	TokenSource string `json:"tokenSource"`
	// ClaimBody is the body of one claim (POST /graphql, "Authorization: Bearer <token>").
	ClaimBody string `json:"claimBody"`
}

// prepare creates the sale (unless sc.VoucherID names one) on the remote server, gets
// every user's token as a flood would, writes the tokens to sc.PrepareOnly and the sale
// next to it, and prints the voucher id on stdout.
func prepare(ctx context.Context, sc scenario, getenv func(string) string, stdout, stderr io.Writer) (err error) {
	t, err := connectRemote(ctx, sc, getenv)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := t.close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing: %w", cerr)
		}
	}()
	c := newClient(t.baseURL, sc.LoginConcurrency)
	defer c.close()
	fmt.Fprintf(stderr, "server   %s at %s\n", t.mode, t.baseURL)

	out := preparedJSON{URL: t.baseURL, Path: sc.Path, Users: sc.Users, TokenSource: sc.Tokens}
	voucherID := sc.VoucherID
	if voucherID == 0 {
		if voucherID, err = t.createSale(ctx, c, sc); err != nil {
			return err
		}
		out.CreatedSale, out.Stock = true, sc.Stock
		fmt.Fprintf(stderr, "sale     voucher %d created (stock %d)\n", voucherID, sc.Stock)
	} else {
		fmt.Fprintf(stderr, "sale     voucher %d (given)\n", voucherID)
	}
	out.VoucherID = strconv.FormatInt(voucherID, 10)

	tokens, err := getTokens(ctx, sc, t, c, stderr, isTerminal(stderr), &result{})
	if err != nil {
		return err
	}
	if err := checkTokens(ctx, c, tokens); err != nil {
		return err
	}
	claim, err := claimBody(voucherID)
	if err != nil {
		return err
	}
	out.ClaimBody = string(claim)
	if out.TokensFile, err = filepath.Abs(sc.PrepareOnly); err != nil {
		return err
	}
	out.PreparedAt = time.Now().UTC()

	if err := writeFile(sc.PrepareOnly, func(path string) error { return writeTokens(path, tokens) }); err != nil {
		return fmt.Errorf("write %s: %w", sc.PrepareOnly, err)
	}
	meta := sc.PrepareOnly + ".json"
	if err := writeJSONFile(meta, out); err != nil {
		return fmt.Errorf("write %s: %w", meta, err)
	}
	fmt.Fprintf(stderr, "wrote    %d tokens to %s, the sale to %s\n", len(tokens), sc.PrepareOnly, meta)
	fmt.Fprintln(stdout, voucherID)
	return nil
}

// writeTokens writes tokens one per line, into a temporary file renamed over path once
// complete, so a reader never sees half a list.
func writeTokens(path string, tokens []string) error {
	return writeAtomically(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		for _, t := range tokens {
			if _, err := bw.WriteString(t); err != nil {
				return err
			}
			if err := bw.WriteByte('\n'); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

func writeJSONFile(path string, v any) error {
	return writeAtomically(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}

func writeAtomically(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	// After the rename the temporary name is gone and this removes nothing.
	defer func() { _ = os.Remove(tmp.Name()) }()
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
}
