// The lexicon.v1 API from Go through the generated stubs (make clients-go):
//
//	go run ./clients/go/check_words localhost:50051 pl-scrabble żółw zółw
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"

	lexiconv1 "example.com/czpl-lexicon/clients/gen/go/lexicon/v1"
)

func main() {
	address, lexicon, words := os.Args[1], os.Args[2], os.Args[3:]
	conn, err := grpc.Dial(address, grpc.WithInsecure())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	checked, err := lexiconv1.NewLexiconServiceClient(conn).CheckWords(ctx,
		&lexiconv1.CheckWordsRequest{Lexicon: lexicon, Words: words})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, r := range checked.GetResults() {
		fmt.Printf("%s\t%s\n", r.GetWord(), r.GetStatus())
	}
	move, err := lexiconv1.NewGameServiceClient(conn).ValidateMove(ctx, &lexiconv1.ValidateMoveRequest{
		Lexicon: lexicon, Rack: "KOTABCD", Play: &lexiconv1.Play{Position: "8H", Word: "KOT"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("%s %d leave=%s\n", move.GetReasonCode(), move.GetTotal(), move.GetRackLeave())
}
